// semitopic workbench: the page. Vanilla JavaScript, no build step, no
// network access beyond its own server. Every field of an answer is read
// as if it could be missing, null or of another type, so that no answer
// can make the page throw.
"use strict";
(function () {

  // ---- Reading answers safely ----
  const list = (x) => (Array.isArray(x) ? x : []);
  const str = (x) => (typeof x === "string" ? x : x === undefined || x === null ? "" : String(x));
  const num = (x) => (typeof x === "number" && isFinite(x) ? x : 0);
  const obj = (x) => (x && typeof x === "object" && !Array.isArray(x) ? x : {});
  const enc = encodeURIComponent;

  function $(id) { return document.getElementById(id); }
  function clear(n) { while (n && n.firstChild) n.removeChild(n.firstChild); }
  // el builds an element: attrs may hold class, text, on* handlers and
  // any attribute; kids are nodes or strings (null skipped).
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    const a = attrs || {};
    for (const k of Object.keys(a)) {
      const v = a[k];
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
      else if (v === true) e.setAttribute(k, "");
      else e.setAttribute(k, String(v));
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid === null || kid === undefined || kid === false) continue;
      e.appendChild(typeof kid === "string" ? document.createTextNode(kid) : kid);
    }
    return e;
  }
  function fmt(x, digits) {
    x = num(x);
    if (x === 0) return "0";
    const d = digits === undefined ? 3 : digits;
    return Math.abs(x) >= 100 ? x.toFixed(0) : Number(x.toPrecision(d)).toString();
  }
  function pct(x) { return (num(x) * 100).toFixed(num(x) < 0.1 ? 1 : 0) + "%"; }
  function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }
  function plural(n, one, many) { return n + " " + (n === 1 ? one : many || one + "s"); }
  function words(s) { return str(s).split(/[,\n]/).map((w) => w.trim()).filter((w) => w !== ""); }

  // ---- State of the page ----
  const S = {
    token: "",
    status: null,
    version: 0,
    topics: [],
    state: null,
    tab: "changes",
    viewSeq: 0,
    selected: new Set(),
    shown: [], // the documents of the list in view
    label: "",
    lastTopic: "",
    refitSince: 0, // when the refit in flight started, by the page's clock
  };

  // ---- Talking to the server ----
  class ApiError extends Error {
    constructor(status, message, body) { super(message); this.status = status; this.body = obj(body); }
  }
  function tokenHeaders() { return S.token ? { "X-Semitopic-Token": S.token } : {}; }
  async function api(path, opts) {
    const o = opts || {};
    const headers = Object.assign({}, o.headers || {}, tokenHeaders());
    let r;
    try {
      r = await fetch(path, Object.assign({}, o, { headers, cache: "no-store" }));
    } catch (e) {
      throw new ApiError(0, "the workbench does not answer: is semitopic workbench still running?", {});
    }
    let body = null;
    if ((r.headers.get("Content-Type") || "").indexOf("application/json") >= 0) {
      try { body = await r.json(); } catch (e) { body = null; }
    } else if (o.text) {
      body = await r.text();
    }
    if (!r.ok) throw new ApiError(r.status, str(obj(body).error) || "the workbench answered " + r.status, body);
    return body === null ? {} : body;
  }
  function post(path, body) {
    return api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  }

  function say(msg, kind) {
    const m = $("message");
    m.textContent = str(msg);
    m.className = kind || "";
    m.title = str(msg);
  }
  function fail(err) {
    if (err instanceof ApiError && err.status === 409) {
      const missed = list(err.body.missed).map(str).filter(Boolean).join("; ");
      say("Not applied: another tab changed the workbench meanwhile (now at version " + num(err.body.current) + (missed ? ": " + missed : "") +
        "). The page shows the current state now; try again.", "err");
      refreshAll();
      return;
    }
    if (err instanceof ApiError && err.status === 401) {
      needToken(str(err.message));
      return;
    }
    say(str(err && err.message) || "something went wrong", "err");
  }
  // guard runs a handler, showing its error instead of throwing. The
  // handler starts at once, so that it can still prevent the event's
  // default (a form's submission) before its first await.
  function guard(fn) {
    return function (ev) {
      try {
        const r = fn.call(this, ev);
        if (r && typeof r.catch === "function") r.catch(fail);
      } catch (err) {
        fail(err);
      }
    };
  }

  // needToken says, in the main view, that the page needs its token.
  function needToken(msg) {
    const v = $("view");
    clear(v);
    v.appendChild(el("div", { class: "box" }, el("h2", { text: "This workbench needs its token" }),
      el("p", { text: (msg || "The workbench refused the page's requests.") }),
      el("p", { text: "Open the address semitopic workbench printed when it started, the one that ends with ?token=…; the page keeps the token for this tab." })));
    say("This workbench needs its token.", "err");
  }

  // ---- Edits ----
  function describe(e) {
    const d = list(e.docs).length;
    switch (e.op) {
      case "add-seed": return "Seed word “" + e.word + "” added to " + e.topic + (e.strength ? " (strength " + e.strength + ")" : "");
      case "remove-seed": return "Seed word “" + e.word + "” removed from " + e.topic;
      case "add-exclude": return "“" + e.word + "” excluded from " + e.topic;
      case "remove-exclude": return "“" + e.word + "” no longer excluded from " + e.topic;
      case "create-topic": return "Topic " + e.name + " created";
      case "rename": return e.topic + " renamed " + e.name;
      case "merge": return e.other + " merged into " + e.topic;
      case "split": return e.topic + " split, new topic " + e.name;
      case "delete-topic": return "Topic " + e.topic + " deleted";
      case "label": return plural(d, "document") + " labeled " + e.label;
      case "unlabel": return "Labels taken from " + plural(d, "document");
      case "add-stopword": return "“" + e.word + "” is a stopword now";
      case "remove-stopword": return "“" + e.word + "” is back in the vocabulary";
      case "remove-doc": return plural(d, "document") + " left out of the model";
      case "restore-doc": return plural(d, "document") + " back in the model";
      case "set-k": return "Number of topics set to " + e.k;
      case "set-kind": return "Kind set to " + e.kind;
    }
    return "Edit applied";
  }
  async function edit(e) {
    try {
      const res = await post("/api/edit", { base: S.version, edit: e });
      applyStatus(obj(res.status));
      let msg = describe(e) + " — refitting…";
      const promise = str(obj(S.status).promise);
      if ((e.op === "add-seed" || e.op === "create-topic" || e.op === "split") && promise) msg += " " + promise;
      say(msg, "ok");
      loadState();
      return true;
    } catch (err) {
      fail(err);
      return false;
    }
  }
  async function action(what) {
    const st = obj(S.status);
    if (what === "undo" && !st.can_undo) { say("Nothing to undo.", ""); return; }
    if (what === "redo" && !st.can_redo) { say("Nothing to redo.", ""); return; }
    try {
      const res = await post("/api/" + what, { base: S.version });
      applyStatus(obj(res.status));
      say({ undo: "Undone: back to round ", redo: "Redone: round ", refit: "Refitting version " }[what] +
        (what === "refit" ? num(res.version) : num(obj(res.status).round)), "ok");
      loadState();
    } catch (err) {
      fail(err);
    }
  }

  // ---- Status: a stream of Server-Sent Events, polling when it fails ----
  async function streamStatus() {
    let failures = 0;
    for (;;) {
      try {
        const r = await fetch("/api/events", { headers: tokenHeaders(), cache: "no-store" });
        if (r.status === 401) {
          // Without the right token nothing will work: say so and stop.
          let msg = "";
          try { msg = str(obj(await r.json()).error); } catch (e) { msg = ""; }
          needToken(msg);
          return;
        }
        if (!r.ok || !r.body) throw new Error("no event stream");
        failures = 0;
        const reader = r.body.getReader();
        const dec = new TextDecoder();
        let buf = "";
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) break;
          buf += dec.decode(chunk.value, { stream: true });
          let i;
          while ((i = buf.indexOf("\n\n")) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            let ev = "message";
            let data = "";
            for (const line of block.split("\n")) {
              if (line.startsWith("event:")) ev = line.slice(6).trim();
              else if (line.startsWith("data:")) data += line.slice(5).trim();
            }
            if (ev === "status" && data) {
              let st = null;
              try { st = JSON.parse(data); } catch (e) { st = null; }
              if (st) applyStatus(st);
            }
          }
        }
      } catch (e) {
        failures++;
      }
      try { applyStatus(await api("/api/status")); } catch (err) { fail(err); }
      await sleep(Math.min(1000 * Math.max(failures, 1), 10000));
    }
  }

  let lastFitted = -1;
  let lastRound = -1;
  let lastVersion = -1;
  let lastAcc = "";
  let lastRounds = -1;
  function applyStatus(st) {
    st = obj(st);
    const first = S.status === null;
    if (st.refitting && !S.refitSince) S.refitSince = Date.now();
    if (!st.refitting) S.refitSince = 0;
    S.status = st;
    S.version = num(st.version);
    renderFit();
    const round = num(st.round);
    const fitted = num(st.fitted);
    const acc = JSON.stringify(obj(st.accuracy));
    const newRound = round !== lastRound || fitted !== lastFitted;
    // A refit adds a round; undo and redo move between the rounds there are.
    const refitted = !first && num(st.rounds) > lastRounds;
    const versionMoved = S.version !== lastVersion;
    const accMoved = acc !== lastAcc;
    lastRound = round; lastFitted = fitted; lastVersion = S.version; lastAcc = acc; lastRounds = num(st.rounds);
    if (newRound) {
      refreshAll(refitted);
    } else {
      if (versionMoved) loadState();
      if (accMoved && (S.tab === "changes" || S.tab === "history")) renderPanel();
    }
  }

  function renderFit() {
    const st = obj(S.status);
    const acc = obj(st.accuracy);
    const m = $("model");
    m.textContent = str(st.kind) + " · " + plural(num(st.k), "topic") + " · round " + num(st.round) + " of " + num(st.rounds);
    $("undo").disabled = !st.can_undo;
    $("redo").disabled = !st.can_redo;
    const fit = $("fit");
    clear(fit);
    const p = obj(st.progress);
    if (st.refitting) {
      const total = num(p.total);
      const share = total > 0 ? Math.min(1, num(p.iter) / total) : 0;
      const bar = el("span", {});
      bar.style.width = (share * 100).toFixed(0) + "%";
      fit.appendChild(el("div", { class: "bar", role: "progressbar", "aria-label": "refit progress", "aria-valuemin": 0, "aria-valuemax": total || 1, "aria-valuenow": num(p.iter) }, bar));
      let what = "Refitting version " + num(st.version) + ": " + (str(p.stage) || "waiting");
      if (total > 0) what += " " + num(p.iter) + "/" + total;
      // The page's own clock too: a fit's first steps may report nothing.
      const secs = Math.max(num(p.seconds), S.refitSince ? (Date.now() - S.refitSince) / 1000 : 0);
      if (secs > 0) what += " · " + secs.toFixed(1) + " s";
      fit.appendChild(el("span", { class: "state", title: what + " — the page stays usable; a new edit restarts it", text: what + " — the page stays usable; a new edit restarts it" }));
    } else if (num(st.version) > num(st.fitted) && !str(st.error)) {
      fit.appendChild(el("span", { class: "state", text: plural(num(st.version) - num(st.fitted), "change") + " waiting for the refit" }));
    } else if (!str(st.error)) {
      fit.appendChild(el("span", { class: "state", title: "version " + num(st.version), text: "Up to date" }));
    }
    const alert = $("alert");
    clear(alert);
    alert.hidden = !str(st.error);
    if (str(st.error)) {
      fit.appendChild(el("span", { class: "state err", text: "The last refit failed" }));
      alert.appendChild(el("b", { text: "The refit of version " + num(st.error_version) + " failed:" }));
      alert.appendChild(document.createTextNode(str(st.error) + " — the page shows round " + num(st.round) + "; undo the change (u) or edit again."));
    }
    const a = accuracyText(acc);
    if (a) fit.appendChild(el("span", { class: "state acc", title: str(acc.note), text: "· " + a }));
  }
  function accuracyText(acc) {
    acc = obj(acc);
    switch (str(acc.state)) {
      case "done": return "accuracy " + num(acc.mean).toFixed(1) + "% ± " + num(acc.sd).toFixed(1) + " (cross-validated)";
      case "estimating": return "estimating accuracy…";
      case "too-few": return "accuracy: too few labels to estimate";
      case "stopped": return "accuracy: a newer refit came first";
      case "failed": return "accuracy could not be estimated";
    }
    return "";
  }

  // ---- Loading ----
  let refreshing = null;
  let refreshAgain = false;
  let refreshFlash = false;
  function refreshAll(flash) {
    refreshFlash = refreshFlash || !!flash;
    if (refreshing) { refreshAgain = true; return refreshing; }
    refreshing = (async () => {
      do {
        refreshAgain = false;
        const f = refreshFlash;
        refreshFlash = false;
        try {
          await Promise.all([loadTopics(), loadState()]);
          renderTopics();
          await route();
          // After a refit the Changes panel shows what it did, unless the
          // person is working in another panel.
          const busy = $("panel").contains(document.activeElement) && S.tab !== "changes";
          if (f && !busy) {
            S.tab = "changes";
            selectTab("changes", false);
            $("tab-changes").classList.add("flash");
            setTimeout(() => $("tab-changes").classList.remove("flash"), 2500);
          }
          await renderPanel(f && !busy);
          if (f) sayRound();
        } catch (err) {
          fail(err);
        }
      } while (refreshAgain);
      refreshing = null;
    })();
    return refreshing;
  }
  async function loadTopics() {
    const res = await api("/api/topics?n=30");
    S.topics = list(res.topics).map(obj);
  }
  async function loadState() {
    try {
      S.state = obj(await api("/api/state"));
    } catch (err) {
      fail(err);
      return;
    }
    const labels = new Set();
    for (const l of list(S.state.labels)) if (str(obj(l).label)) labels.add(str(obj(l).label));
    for (const t of S.topics) {
      if (str(t.label)) labels.add(str(t.label));
    }
    const dl = $("labellist");
    clear(dl);
    for (const l of Array.from(labels).sort()) dl.appendChild(el("option", { value: l }));
    if (S.tab === "model") renderPanel();
  }
  function topicByName(name) { return S.topics.find((t) => str(t.name) === name) || null; }
  function labelsKnown() {
    return list(obj(S.state).labels).map((l) => str(obj(l).label)).filter(Boolean);
  }

  // ---- Topics list ----
  function renderTopics() {
    const ol = $("topics");
    clear(ol);
    const current = viewTopic();
    const maxShare = Math.max(1e-9, ...S.topics.map((t) => num(t.share)));
    const empty = [];
    for (const t of S.topics) {
      if (t.empty) { empty.push(str(t.name)); continue; }
      const name = str(t.name);
      const share = el("span", {});
      share.style.width = ((num(t.share) / maxShare) * 100).toFixed(0) + "%";
      const ws = list(t.words).slice(0, 6).map((w, i) => {
        w = obj(w);
        return [i > 0 ? " " : "", el("span", { class: w.seed ? "seed" : "", text: str(w.word) })];
      });
      const meta = [
        el("span", { class: "share", "aria-hidden": "true" }, share),
        el("span", { text: pct(t.share) }),
        el("span", { text: plural(num(t.docs), "doc") }),
      ];
      if (t.coherence !== undefined && t.coherence !== null) meta.push(el("span", { title: "NPMI coherence of the top 10 words, −1 to 1", text: "coh " + fmt(t.coherence, 2) }));
      if (list(t.junk).length) meta.push(el("span", { class: "junk", title: list(t.junk).map(str).join("; "), text: "⚠ junk?" }));
      const label = str(t.label) && str(t.label) !== name ? el("span", { class: "tag label", title: "the label this topic serves", text: str(t.label) }) : null;
      const b = el("button", {
        type: "button", class: "topic", "data-topic": name, "aria-current": current === name ? "true" : "false",
        onclick: () => go("topic", name),
      }, el("div", { class: "name" }, name, " ", label), el("div", { class: "meta" }, meta), el("div", { class: "words" }, ws));
      ol.appendChild(el("li", {}, b));
    }
    const e = $("emptytopics");
    clear(e);
    if (empty.length) {
      e.appendChild(el("details", {}, el("summary", { text: plural(empty.length, "empty topic") + " (the fit left them unused)" }),
        el("div", { class: "small" }, empty.map((n, i) => [i ? ", " : "", el("a", { href: "#topic/" + enc(n), text: n })]))));
    }
    if (!S.topics.length) e.textContent = "No topics yet: the first fit is running.";
  }
  function viewTopic() {
    const h = parseHash();
    return h.kind === "topic" ? h.arg : "";
  }

  // ---- Routing: #topic/NAME, #doc/ID, #search/Q, #vocab/PREFIX ----
  function parseHash() {
    const h = location.hash.replace(/^#/, "");
    const i = h.indexOf("/");
    const kind = i < 0 ? h : h.slice(0, i);
    let arg = "";
    try { arg = i < 0 ? "" : decodeURIComponent(h.slice(i + 1)); } catch (e) { arg = ""; }
    return { kind, arg };
  }
  function go(kind, arg) {
    const h = "#" + kind + "/" + enc(arg || "");
    if (location.hash === h) route();
    else location.hash = h;
  }
  async function route() {
    const h = parseHash();
    const seq = ++S.viewSeq;
    S.selected.clear();
    S.shown = [];
    for (const b of document.querySelectorAll(".topic[data-topic]")) {
      b.setAttribute("aria-current", h.kind === "topic" && b.getAttribute("data-topic") === h.arg ? "true" : "false");
    }
    try {
      switch (h.kind) {
        case "doc": return await showDoc(h.arg, seq);
        case "search": return await showSearch(h.arg, seq);
        case "vocab": return await showVocab(h.arg, seq);
        case "topic":
          if (topicByName(h.arg)) return await showTopic(h.arg, seq);
      }
      const first = S.topics.find((t) => !t.empty) || S.topics[0];
      if (first) return await showTopic(str(first.name), seq);
      const v = $("view");
      clear(v);
      v.appendChild(el("p", { class: "empty-state", text: "No topics yet: the first fit is running." }));
    } catch (err) {
      if (seq === S.viewSeq) fail(err);
    }
  }

  // ---- Topic view ----
  async function showTopic(name, seq) {
    const t = topicByName(name);
    if (!t) return;
    S.lastTopic = name;
    if (!S.label || !labelsKnown().includes(S.label)) S.label = str(t.label) || name;
    const v = $("view");
    const others = S.topics.map((x) => str(x.name)).filter((n) => n !== name);
    const forms = el("div", {});
    const facts = [pct(t.share) + " of the corpus", plural(num(t.docs), "document")];
    if (t.coherence !== undefined && t.coherence !== null) facts.push("coherence " + fmt(t.coherence, 2));
    const head = el("div", { class: "viewhead" },
      el("h2", { text: name }),
      str(t.model_name) && str(t.model_name) !== name ? el("span", { class: "muted", text: "(" + str(t.model_name) + " in the model)" }) : null,
      str(t.label) ? el("span", { class: "tag label", text: "serves the label " + str(t.label) }) : null,
      el("span", { class: "facts", text: facts.join(" · ") }));
    const junk = list(t.junk).length ? el("p", { class: "note junk", text: "Looks like junk: " + list(t.junk).map(str).join("; ") + "." }) : null;
    const empty = t.empty ? el("p", { class: "note", text: "The fit left this topic unused." }) : null;

    function openForm(f) {
      clear(forms);
      forms.appendChild(f);
      const first = f.querySelector("input, select, button");
      if (first) first.focus();
    }
    function cancelButton() { return el("button", { type: "button", class: "ghost", onclick: () => clear(forms) }, "Cancel"); }
    const tools = el("div", { class: "tools" },
      el("button", { type: "button", onclick: () => {
        const inp = el("input", { value: name, "aria-label": "new name", required: true });
        openForm(el("form", { class: "inline-form", onsubmit: guard(async (ev) => {
          ev.preventDefault();
          const nn = inp.value.trim();
          if (nn && nn !== name && await edit({ op: "rename", topic: name, name: nn })) go("topic", nn);
        }) }, el("label", {}, "Rename to ", inp), el("button", { type: "submit" }, "Rename"), cancelButton()));
      } }, "Rename…"),
      el("button", { type: "button", disabled: others.length === 0, onclick: () => {
        const sel = el("select", { "aria-label": "topic to merge into this one" }, others.map((o) => el("option", { value: o, text: o })));
        openForm(el("form", { class: "inline-form", onsubmit: guard(async (ev) => {
          ev.preventDefault();
          await edit({ op: "merge", topic: name, other: sel.value });
        }) }, el("label", {}, "Merge ", sel, " into " + name), el("button", { type: "submit" }, "Merge"), cancelButton(),
        el("div", { class: "small muted", text: "The merged topic keeps both topics' seed words; a topic without seed words brings its top 5 words as seed words. The number of topics goes down by one." })));
      } }, "Merge…"),
      el("button", { type: "button", onclick: () => {
        const g1 = el("input", { "aria-label": "seed words that stay in this topic", list: "vocablist", required: true, placeholder: "words, comma separated" });
        const g2 = el("input", { "aria-label": "seed words of the new topic", list: "vocablist", required: true, placeholder: "words, comma separated" });
        const nn = el("input", { "aria-label": "name of the new topic", required: true, value: name + "-2" });
        const top = list(t.words).slice(0, 10).map((w) => str(obj(w).word));
        g1.value = top.slice(0, 5).join(", ");
        g2.value = top.slice(5, 10).join(", ");
        openForm(el("form", { class: "inline-form", onsubmit: guard(async (ev) => {
          ev.preventDefault();
          const a = words(g1.value), b = words(g2.value);
          if (!a.length || !b.length) { say("Give seed words for both parts of the split.", "err"); return; }
          await edit({ op: "split", topic: name, name: nn.value.trim(), groups: [a, b] });
        }) }, el("label", {}, name + " keeps ", g1), el("label", {}, "new topic ", nn, " gets ", g2),
        el("button", { type: "submit" }, "Split"), cancelButton()));
      } }, "Split…"),
      el("button", { type: "button", class: "danger", onclick: () => {
        openForm(el("form", { class: "inline-form", onsubmit: guard(async (ev) => {
          ev.preventDefault();
          if (await edit({ op: "delete-topic", topic: name })) go("topic", "");
        }) }, el("span", { text: "Delete " + name + "? Its seed and exclusion words go and the number of topics goes down by one." }),
        el("button", { type: "submit", class: "danger" }, "Delete"), cancelButton()));
      } }, "Delete…"),
      el("button", { type: "button", onclick: () => go("vocab", "") }, "Vocabulary"));

    // Seed and exclusion words.
    const seedWord = el("input", { "aria-label": "seed word", list: "vocablist", placeholder: "word or phrase", required: true });
    const strength = el("input", { type: "number", "aria-label": "strength (empty: the default; a seed word given again takes the new strength)", title: "strength: empty for the kind's default; give a seed word again to change its strength", placeholder: "strength", min: "0.000001", max: "1000000", step: "any" });
    const seeds = el("div", {});
    for (const s of list(t.seeds)) {
      const sv = obj(s);
      const w = str(sv.word);
      const rank = num(sv.rank);
      const title = (str(sv.term) && str(sv.term) !== w ? "read as “" + str(sv.term) + "”; " : "") + (rank ? "rank " + rank + " in the topic" : "no weight in the topic");
      seeds.appendChild(el("span", { class: "tag seedtag", title },
        el("button", { type: "button", class: "chip", title: title + "; change its strength", onclick: () => { seedWord.value = w; strength.value = num(sv.strength) ? String(num(sv.strength)) : ""; strength.focus(); } },
          "★ " + w + (num(sv.strength) ? " ×" + fmt(sv.strength) : "") + " · " + (rank ? "#" + rank : "—")),
        el("button", { type: "button", "aria-label": "remove the seed word " + w, title: "remove the seed word", onclick: guard(() => edit({ op: "remove-seed", topic: name, word: w })) }, "×")));
    }
    if (!list(t.seeds).length) seeds.appendChild(el("span", { class: "muted small", text: "No seed words." }));
    hookVocab(seedWord);
    const seedForm = el("form", { class: "row", onsubmit: guard(async (ev) => {
      ev.preventDefault();
      const w = seedWord.value.trim();
      if (!w) return;
      const e = { op: "add-seed", topic: name, word: w };
      if (strength.value !== "") e.strength = Number(strength.value);
      if (await edit(e)) { seedWord.value = ""; }
    }) }, seedWord, strength, el("button", { type: "submit" }, "Add seed"));
    const excl = el("div", {});
    for (const x of list(t.excluded)) {
      const w = str(x);
      excl.appendChild(el("span", { class: "tag excl" }, "− " + w,
        el("button", { type: "button", "aria-label": "stop excluding " + w, title: "stop excluding it", onclick: guard(() => edit({ op: "remove-exclude", topic: name, word: w })) }, "×")));
    }
    if (!list(t.excluded).length) excl.appendChild(el("span", { class: "muted small", text: "No excluded words." }));
    const exWord = el("input", { "aria-label": "word to exclude", list: "vocablist", placeholder: "word", required: true });
    hookVocab(exWord);
    const exForm = el("form", { class: "row", onsubmit: guard(async (ev) => {
      ev.preventDefault();
      const w = exWord.value.trim();
      if (w && await edit({ op: "add-exclude", topic: name, word: w })) exWord.value = "";
    }) }, exWord, el("button", { type: "submit" }, "Exclude"));

    // Top words.
    const maxW = Math.max(1e-12, ...list(t.words).map((w) => num(obj(w).weight)));
    const rows = list(t.words).map((w, i) => {
      w = obj(w);
      const word = str(w.word);
      const bar = el("span", { class: "wbar" });
      bar.style.width = ((num(w.weight) / maxW) * 100).toFixed(0) + "%";
      return el("tr", {},
        el("td", { class: "num", text: String(i + 1) }),
        el("td", { class: "w", title: "weight " + fmt(w.weight) }, el("span", { class: w.seed ? "seed" : "", text: word }), bar),
        el("td", { class: "num wnum", text: fmt(w.weight, 2) }),
        el("td", { class: "acts" },
          w.seed ? el("button", { type: "button", title: "no longer a seed word of " + name, "aria-label": "unseed " + word, onclick: guard(() => edit({ op: "remove-seed", topic: name, word: seedWordOf(t, word) })) }, "unseed")
            : el("button", { type: "button", title: "make it a seed word of " + name, "aria-label": "seed " + word, onclick: guard(() => edit({ op: "add-seed", topic: name, word })) }, "seed"),
          w.seed ? null : el("button", { type: "button", title: "exclude it from " + name + " (weight exactly 0)", "aria-label": "exclude " + word, onclick: guard(() => edit({ op: "add-exclude", topic: name, word })) }, "excl."),
          el("button", { type: "button", title: "a stopword: out of every topic", "aria-label": "stopword " + word, onclick: guard(() => edit({ op: "add-stopword", word })) }, "stop")));
    });
    const promise = str(obj(S.status).promise);
    const left = el("div", {},
      el("div", { class: "box" }, el("h3", { text: "Seed words" }), seeds, seedForm,
        promise ? el("details", { class: "promise" }, el("summary", { text: "What seed words do in " + str(obj(S.status).kind) }), el("p", { text: promise })) : null,
        el("h3", { text: "Excluded words" }), excl, exForm),
      el("div", { class: "box" }, el("h3", { text: "Top words" }),
        rows.length ? el("table", { class: "words-table" }, el("tbody", {}, rows)) : el("p", { class: "muted", text: "This topic has no word with weight." })));
    const docsBox = el("div", { class: "box" }, el("h3", { text: "Top documents" }), el("p", { class: "muted", text: "loading…" }));
    clear(v);
    v.appendChild(el("div", {}, head, junk, empty, tools, forms, el("div", { class: "columns" }, left, docsBox)));
    const res = await api("/api/topics/" + enc(name) + "/docs?n=25");
    if (seq !== S.viewSeq) return;
    const docs = list(res.docs).map(obj);
    clear(docsBox);
    docsBox.appendChild(el("h3", { text: "Top documents" }));
    docsBox.appendChild(docList(docs, "No document has weight in this topic."));
  }

  // seedWordOf is the seed word as the person gave it whose vocabulary
  // term is term ("Games" for "game"), for removing it.
  function seedWordOf(t, term) {
    const s = list(t.seeds).map(obj).find((x) => str(x.term) === term || str(x.word) === term);
    return s ? str(s.word) : term;
  }

  // ---- Documents in lists ----
  function docList(docs, emptyText) {
    S.shown = docs.map((d) => str(d.id));
    S.selected.clear();
    const wrap = el("div", {});
    if (!docs.length) {
      wrap.appendChild(el("p", { class: "muted", text: emptyText }));
      return wrap;
    }
    const count = el("span", { class: "small muted", text: "0 selected" });
    const all = el("input", { type: "checkbox", "aria-label": "select all the documents listed" });
    const labelIn = el("input", { list: "labellist", "aria-label": "label to give", placeholder: "label", value: S.label });
    labelIn.addEventListener("input", () => { S.label = labelIn.value.trim(); });
    const cards = docs.map((d) => docCard(d, () => sync()));
    function chosen() { return S.selected.size ? Array.from(S.selected) : []; }
    function sync() {
      count.textContent = S.selected.size + " selected";
      all.checked = S.selected.size === docs.length;
      all.indeterminate = S.selected.size > 0 && S.selected.size < docs.length;
      for (const c of cards) {
        const on = S.selected.has(c.getAttribute("data-id"));
        c.classList.toggle("selected", on);
        const cb = c.querySelector("input[type=checkbox]");
        if (cb) cb.checked = on;
      }
    }
    all.addEventListener("change", () => {
      S.selected.clear();
      if (all.checked) for (const d of docs) S.selected.add(str(d.id));
      sync();
    });
    const tools = el("div", { class: "doctools" },
      el("label", { class: "row" }, all, "all"), count,
      el("label", { class: "row" }, "as ", labelIn),
      el("button", { type: "button", onclick: guard(async () => {
        const ids = chosen();
        const l = labelIn.value.trim();
        if (!ids.length) { say("Select documents first (the boxes at their left, or “all”).", "err"); return; }
        if (!l) { say("Type the label to give.", "err"); labelIn.focus(); return; }
        S.label = l;
        await edit({ op: "label", docs: ids, label: l });
      }) }, el("span", { text: "Label" }), el("span", { class: "sr", text: " the selected documents" })),
      el("button", { type: "button", onclick: guard(async () => {
        const ids = chosen();
        if (!ids.length) { say("Select documents first.", "err"); return; }
        await edit({ op: "unlabel", docs: ids });
      }) }, el("span", { text: "Unlabel" }), el("span", { class: "sr", text: " the selected documents" })),
      el("button", { type: "button", class: "danger", onclick: guard(async () => {
        const ids = chosen();
        if (!ids.length) { say("Select documents first.", "err"); return; }
        await edit({ op: "remove-doc", docs: ids });
      }) }, el("span", { text: "Remove" }), el("span", { class: "sr", text: " the selected documents from the model" })));
    wrap.appendChild(tools);
    for (const c of cards) wrap.appendChild(c);
    return wrap;
  }
  function docCard(d, onSelect) {
    const id = str(d.id);
    const labels = list(d.labels).map(str);
    const pred = list(d.predicted).map(str);
    const cb = el("input", { type: "checkbox", "aria-label": "select " + id });
    cb.addEventListener("change", () => {
      if (cb.checked) S.selected.add(id); else S.selected.delete(id);
      onSelect();
    });
    const labelTags = labels.map((l) => el("span", { class: "tag label", title: "label" }, l,
      el("button", { type: "button", "aria-label": "take the label " + l + " from " + id, title: "take this label away", onclick: guard(() => edit({ op: "unlabel", docs: [id], label: l })) }, "×")));
    const predTags = pred.map((p) => el("span", { class: "tag pred" + (labels.length && !labels.includes(p) ? " miss" : ""), title: "the model's label", text: "→ " + p }));
    const card = el("div", { class: "card", tabindex: "0", "data-id": id },
      el("div", { class: "head" }, cb,
        el("a", { href: "#doc/" + enc(id), text: id }),
        str(d.topic) ? el("span", { class: "tag", title: "its main topic", text: str(d.topic) }) : null,
        num(d.weight) ? el("span", { class: "muted", title: "its weight in the list's topic or term", text: "weight " + fmt(d.weight) }) : null,
        d.removed ? el("span", { class: "tag pred miss", text: "removed" }) : null,
        d.wordless ? el("span", { class: "tag pred miss", title: "no word of it is in the model's vocabulary: the model cannot learn from its label or predict one", text: "no word the model reads" }) : null,
        labelTags, predTags),
      el("div", { class: "text" }, highlighted(str(d.text), list(d.highlights))),
      el("div", { class: "acts" },
        el("button", { type: "button", title: "give it the label in the toolbar (l)", onclick: guard(() => labelOne(id)) }, "Label"),
        pred.length && !labels.length ? el("button", { type: "button", title: "accept the model's label", onclick: guard(() => edit({ op: "label", docs: [id], label: pred[0] })) }, "Label " + pred[0]) : null,
        el("button", { type: "button", class: "danger", title: "leave it out of the model", onclick: guard(() => edit({ op: d.removed ? "restore-doc" : "remove-doc", docs: [id] })) }, d.removed ? "Restore" : "Remove")));
    return card;
  }
  async function labelOne(id) {
    const l = (document.querySelector(".doctools input[list=labellist]") || {}).value || S.label;
    const label = str(l).trim();
    if (!label) { say("Type a label in the toolbar first.", "err"); return; }
    S.label = label;
    await edit({ op: "label", docs: [id], label });
  }
  // highlighted returns text with the highlights' byte spans marked.
  function highlighted(text, hs) {
    const frag = document.createDocumentFragment();
    const spans = list(hs).map(obj).filter((h) => num(h.end) > num(h.start)).sort((a, b) => num(a.start) - num(b.start));
    if (!spans.length) { frag.appendChild(document.createTextNode(text)); return frag; }
    const bytes = new TextEncoder().encode(text);
    const dec = new TextDecoder();
    let at = 0;
    for (const h of spans) {
      const s = Math.max(at, Math.min(bytes.length, num(h.start)));
      const e = Math.max(s, Math.min(bytes.length, num(h.end)));
      if (e <= s) continue;
      if (s > at) frag.appendChild(document.createTextNode(dec.decode(bytes.subarray(at, s))));
      const m = el("mark", { title: str(h.topic) ? str(h.term) + " — " + str(h.topic) : str(h.term), text: dec.decode(bytes.subarray(s, e)) });
      const c = topicColor(str(h.topic));
      if (c) m.style.background = c;
      frag.appendChild(m);
      at = e;
    }
    if (at < bytes.length) frag.appendChild(document.createTextNode(dec.decode(bytes.subarray(at))));
    return frag;
  }
  const palette = ["#fff08a", "#c9f0d0", "#cfe3ff", "#ffd7c2", "#ead6ff", "#c8f1f0", "#ffd0e0", "#e5efb5", "#f2dfc3", "#dde2ea"];
  let colorTopics = [];
  function topicColor(name) {
    if (!name) return "";
    const i = colorTopics.indexOf(name);
    return i >= 0 ? palette[i % palette.length] : "";
  }

  // ---- Document view ----
  async function showDoc(id, seq) {
    const d = obj(await api("/api/docs/" + enc(id)));
    if (seq !== S.viewSeq) return;
    const v = $("view");
    const mix = list(d.mixture).map(obj);
    colorTopics = mix.map((m) => str(m.topic));
    const labels = list(d.labels).map(str);
    const pred = list(d.predicted).map(str);
    const labelIn = el("input", { list: "labellist", "aria-label": "label to give", placeholder: "label", value: S.label, required: true });
    const mixRows = mix.slice(0, 12).map((m, i) => {
      const b = el("span", {});
      b.style.width = (num(m.weight) * 100).toFixed(1) + "%";
      b.style.background = palette[i % palette.length] === "#fff08a" ? "#e0c800" : palette[i % palette.length];
      return [el("a", { href: "#topic/" + enc(str(m.topic)), text: str(m.topic) }), el("div", { class: "bar" }, b), el("span", { class: "muted", text: pct(m.weight) })];
    });
    clear(v);
    v.appendChild(el("div", {}, el("div", { class: "card", tabindex: "0", "data-id": str(d.id) || id },
      el("div", { class: "viewhead" }, el("h2", { text: str(d.id) || id }),
        d.removed ? el("span", { class: "tag pred miss", text: "left out of the model" }) : null,
        d.wordless ? el("span", { class: "tag pred miss", title: "the model can neither learn from its label nor predict one", text: "no word of it is in the model's vocabulary" }) : null,
        str(d.topic) ? el("span", { class: "facts", text: "main topic " + str(d.topic) }) : null),
      el("div", { class: "row" }, el("b", { text: "Labels:" }),
        labels.length ? labels.map((l) => el("span", { class: "tag label" }, l,
          el("button", { type: "button", "aria-label": "take the label " + l + " away", onclick: guard(() => edit({ op: "unlabel", docs: [id], label: l })) }, "×"))) : el("span", { class: "muted", text: "none" }),
        pred.length ? [el("b", { text: " The model says:" }), pred.map((p) => el("span", { class: "tag pred" + (labels.length && !labels.includes(p) ? " miss" : ""), text: p }))] : null),
      el("form", { class: "row", onsubmit: guard(async (ev) => {
        ev.preventDefault();
        const l = labelIn.value.trim();
        if (!l) return;
        S.label = l;
        await edit({ op: "label", docs: [id], label: l });
      }) }, el("label", {}, "Label ", labelIn), el("button", { type: "submit" }, "Label"),
        pred.length && !labels.includes(pred[0]) ? el("button", { type: "button", onclick: guard(() => edit({ op: "label", docs: [id], label: pred[0] })) }, "Label " + pred[0]) : null,
        labels.length ? el("button", { type: "button", onclick: guard(() => edit({ op: "unlabel", docs: [id] })) }, "Unlabel") : null,
        el("button", { type: "button", class: "danger", onclick: guard(() => edit({ op: d.removed ? "restore-doc" : "remove-doc", docs: [id] })) }, d.removed ? "Restore to the model" : "Remove from the model"))),
    el("div", { class: "columns" },
      el("div", { class: "box" }, el("h3", { text: "Topic mixture" }),
        mixRows.length ? el("div", { class: "mix" }, mixRows) : el("p", { class: "muted", text: "No topic weight (no word of the vocabulary, or left out)." })),
      el("div", { class: "box" }, el("h3", { text: "Text" }), el("div", { class: "fulltext" }, highlighted(str(d.text), list(d.highlights)))))));
  }

  // ---- Search ----
  async function showSearch(q, seq) {
    $("q").value = q;
    const v = $("view");
    if (!q.trim()) {
      clear(v);
      v.appendChild(el("p", { class: "empty-state", text: "Type a word or phrase in the search box." }));
      return;
    }
    const res = obj(await api("/api/search?n=100&q=" + enc(q)));
    if (seq !== S.viewSeq) return;
    colorTopics = [];
    const docs = list(res.docs).map(obj);
    clear(v);
    v.appendChild(el("div", { class: "viewhead" }, el("h2", { text: "Search: " + q }), el("span", { class: "facts", text: plural(docs.length, "document") + (docs.length === 100 ? " (the first 100)" : "") })));
    if (str(res.note)) v.appendChild(el("p", { class: "note", text: str(res.note) }));
    v.appendChild(docList(docs, "No document holds it."));
  }

  // ---- Vocabulary ----
  async function showVocab(prefix, seq) {
    const res = obj(await api("/api/vocab?n=300&prefix=" + enc(prefix)));
    if (seq !== S.viewSeq) return;
    const v = $("view");
    const terms = list(res.terms).map(obj);
    const inp = el("input", { type: "search", value: prefix, "aria-label": "terms starting with", placeholder: "starts with…" });
    const target = S.lastTopic && topicByName(S.lastTopic) ? S.lastTopic : "";
    clear(v);
    v.appendChild(el("div", { class: "viewhead" }, el("h2", { text: "Vocabulary" }),
      el("span", { class: "facts", text: plural(terms.length, "term") + (prefix ? " starting with “" + prefix + "”" : "") + ", the most frequent first" })));
    v.appendChild(el("form", { class: "row", onsubmit: (ev) => { ev.preventDefault(); go("vocab", inp.value.trim()); } },
      inp, el("button", { type: "submit" }, "Show")));
    if (!terms.length) { v.appendChild(el("p", { class: "muted", text: "No term." })); return; }
    v.appendChild(el("table", { class: "vocab" },
      el("thead", {}, el("tr", {}, el("th", { text: "term" }), el("th", { class: "num", text: "documents" }), el("th", { text: "in the top 10 of" }), el("th", { text: "" }))),
      el("tbody", {}, terms.map((t) => {
        const term = str(t.term);
        return el("tr", {},
          el("td", {}, el("a", { href: "#search/" + enc(term), text: term })),
          el("td", { class: "num", text: String(num(t.df)) }),
          el("td", {}, list(t.topics).map((n, i) => [i ? ", " : "", el("a", { href: "#topic/" + enc(str(n)), text: str(n) })])),
          el("td", { class: "acts" },
            target ? el("button", { type: "button", class: "small", onclick: guard(() => edit({ op: "add-seed", topic: target, word: term })) }, "seed of " + target) : null,
            el("button", { type: "button", class: "small", onclick: guard(() => edit({ op: "add-stopword", word: term })) }, "stopword")));
      }))));
    setTimeout(() => inp.focus(), 0);
  }
  // hookVocab fills the vocabulary datalist as a word is typed.
  function hookVocab(inp) {
    let timer = 0;
    inp.addEventListener("input", () => {
      clearTimeout(timer);
      const p = inp.value.trim();
      if (p.length < 2) return;
      timer = setTimeout(guard(async () => {
        const res = obj(await api("/api/vocab?n=20&prefix=" + enc(p)));
        const dl = $("vocablist");
        clear(dl);
        for (const t of list(res.terms)) dl.appendChild(el("option", { value: str(obj(t).term), label: num(obj(t).df) + " documents" }));
      }), 200);
    });
  }

  // ---- The side panel ----
  function selectTab(tab, focus) {
    S.tab = tab;
    for (const b of document.querySelectorAll("[role=tab]")) {
      const on = b.getAttribute("data-tab") === tab;
      b.setAttribute("aria-selected", on ? "true" : "false");
      b.tabIndex = on ? 0 : -1;
      if (on && focus) b.focus();
    }
    $("panel").setAttribute("aria-labelledby", "tab-" + tab);
  }
  let panelSeq = 0;
  async function renderPanel(flash) {
    const seq = ++panelSeq;
    const p = $("panel");
    let content;
    try {
      switch (S.tab) {
        case "changes": content = await changesPanel(); break;
        case "suggest": content = await suggestPanel(); break;
        case "history": content = await historyPanel(); break;
        case "model": content = modelPanel(); break;
        case "export": content = await exportPanel(); break;
      }
    } catch (err) {
      content = el("p", { class: "bad", text: str(err && err.message) });
    }
    if (seq !== panelSeq) return;
    clear(p);
    const box = el("div", { class: "panel" + (flash ? " flashbox" : "") }, content);
    p.appendChild(box);
  }

  // sayRound says what the round just shown changed, in one line.
  async function sayRound() {
    const d = obj(await api("/api/rounds/0/diff"));
    const changed = list(d.topics).map(obj).filter((t) => t.new || list(t.entered).length || list(t.left).length).length;
    let msg = "Round " + num(d.round) + " is in: the top 10 words changed in " + plural(changed, "topic") + ", " + plural(num(d.moved), "document") + " moved to another topic";
    const seeds = list(obj(d.checks).seeds).map(obj);
    const missed = seeds.filter((s) => !s.top10).length;
    if (missed) msg += "; " + plural(missed, "seed word") + " not in their topic's top 10 (see Changes)";
    say(msg + ".", missed ? "" : "ok");
  }

  async function changesPanel() {
    const d = obj(await api("/api/rounds/0/diff"));
    const out = [];
    const round = num(d.round);
    out.push(el("h3", { text: num(d.previous) ? "Round " + round + " against round " + num(d.previous) : "Round " + round + " (the first)" }));
    const changes = list(d.changes).map(str);
    if (changes.length) out.push(el("ul", { class: "small" }, changes.map((c) => el("li", { text: c }))));
    const before = obj(d.before), after = obj(d.after);
    if (str(after.state) && str(after.state) !== "none") {
      const a = str(after.state) === "done" ? num(after.mean).toFixed(1) + "%" : accuracyText(after);
      const b = str(before.state) === "done" ? num(before.mean).toFixed(1) + "%" : "";
      const delta = str(before.state) === "done" && str(after.state) === "done" ? num(after.mean) - num(before.mean) : null;
      out.push(el("div", { class: "acc" }, el("b", { text: "Accuracy " }),
        b ? el("span", { text: b + " → " }) : null, el("span", { class: "bigacc", text: a }),
        delta !== null ? el("span", { class: delta >= 0 ? "ok" : "bad", text: " (" + (delta >= 0 ? "+" : "") + delta.toFixed(1) + ")" }) : null,
        el("div", { class: "small muted", text: str(after.note) || "a cross-validated estimate over the labeled documents" })));
    }
    const ch = obj(d.checks);
    const seeds = list(ch.seeds).map(obj);
    const excl = list(ch.excluded).map(obj);
    if (seeds.length || excl.length || num(ch.labeled)) {
      out.push(el("h3", { text: "Did the edits take effect?" }));
      if (seeds.length) {
        const ok = seeds.filter((s) => s.top10).length;
        // Each seed word's rank: those that missed the top 10 first, then
        // those this round's changes added, then the others.
        const added = (s) => changes.some((c) => c.startsWith("seed word " + JSON.stringify(str(s.word)) + " added to topic " + JSON.stringify(str(s.topic))));
        const order = (s) => (!s.top10 ? 0 : added(s) ? 1 : 2);
        const shown = seeds.map((s, i) => [order(s), i, s]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]).slice(0, 12);
        out.push(el("div", { class: "small" }, el("span", { class: ok === seeds.length ? "ok" : "bad", text: ok + " of " + seeds.length + " seed words in their topic's top 10" }),
          el("ul", { class: "seedranks" }, shown.map((s) => el("li", { class: s.top10 ? "" : "bad" },
            "★ " + str(s.word) + " in " + str(s.topic) + ": ", el("b", { text: num(s.rank) ? "rank " + num(s.rank) : "no weight" })))),
          seeds.length > shown.length ? el("div", { class: "muted", text: "and " + plural(seeds.length - shown.length, "more seed word") + " (see each topic)" }) : null));
      }
      if (excl.length) {
        const ok = excl.filter((x) => x.zero).length;
        out.push(el("div", { class: ok === excl.length ? "small ok" : "small bad", text: ok + " of " + excl.length + " excluded words with weight exactly 0" }));
      }
      if (num(ch.labeled)) {
        out.push(el("div", { class: "small " + (num(ch.agree) === num(ch.labeled) ? "ok" : ""), text: num(ch.agree) + " of " + num(ch.labeled) + " labeled documents predicted as labeled" }));
        for (const m of list(ch.disagree).slice(0, 10).map(obj)) {
          out.push(el("div", { class: "small" }, el("a", { href: "#doc/" + enc(str(m.id)), text: str(m.id) }), ": labeled " + list(m.labels).map(str).join(", ") + ", predicted " + (list(m.predicted).map(str).join(", ") || "nothing")));
        }
      }
      if (num(ch.wordless)) {
        out.push(el("div", { class: "small", text: num(ch.wordless) + " labeled documents hold no word of the vocabulary: no model can predict them" }));
      }
      if (str(ch.note)) out.push(el("p", { class: "note", text: str(ch.note) }));
    }
    out.push(el("h3", { text: "Top 10 words" }));
    const tds = !num(d.previous) ? [] : list(d.topics).map(obj).filter((t) => t.new || list(t.entered).length || list(t.left).length);
    if (!tds.length) out.push(el("p", { class: "small muted", text: num(d.previous) ? "No topic's top 10 words changed." : "Nothing to compare with yet." }));
    for (const t of tds) {
      out.push(el("div", { class: "diff-topic" }, el("a", { href: "#topic/" + enc(str(t.topic)) }, el("b", { text: str(t.topic) })),
        t.new ? el("span", { class: "tag", text: "new" }) : null, " ",
        list(t.entered).map((w) => el("span", { class: "plus", text: "+" + str(w) + " " })),
        list(t.left).map((w) => el("span", { class: "minus", text: str(w) })).flatMap((x) => [x, " "])));
    }
    if (list(d.gone).length) out.push(el("div", { class: "small", text: "Gone: " + list(d.gone).map(str).join(", ") }));
    out.push(el("h3", { text: "Documents that moved" }));
    out.push(el("p", { class: "small", text: plural(num(d.moved), "document") + " changed their main topic." }));
    const moves = list(d.moves).map(obj).slice(0, 30);
    if (moves.length) {
      out.push(el("ul", { class: "list small" }, moves.map((m) => el("li", {},
        el("a", { href: "#doc/" + enc(str(m.id)), text: str(m.id) }), ": " + str(m.from) + " → " + str(m.to)))));
    }
    return out;
  }

  async function suggestPanel() {
    const s = obj(await api("/api/suggest"));
    const out = [el("h3", { text: "Documents to label next" }),
      el("p", { class: "small muted", text: "The ones the model is least sure about, spread over the topics." })];
    const docs = list(s.label).map(obj);
    if (!docs.length) out.push(el("p", { class: "small muted", text: "None." }));
    for (const d of docs.slice(0, 15)) {
      const id = str(d.id);
      const pred = list(d.predicted).map(str);
      out.push(el("div", { class: "card", tabindex: "0", "data-id": id },
        el("div", { class: "head" }, el("a", { href: "#doc/" + enc(id), text: id }), str(d.topic) ? el("span", { class: "tag", text: str(d.topic) }) : null,
          pred.map((p) => el("span", { class: "tag pred", text: "→ " + p }))),
        el("div", { class: "text small" }, str(d.text)),
        el("div", { class: "small muted", text: str(d.reason) }),
        el("div", { class: "acts" },
          pred.length ? el("button", { type: "button", onclick: guard(() => edit({ op: "label", docs: [id], label: pred[0] })) }, "Label " + pred[0]) : null,
          el("button", { type: "button", onclick: guard(() => labelOne(id)) }, "Label…"),
          el("button", { type: "button", onclick: () => go("doc", id) }, "Open"))));
    }
    out.push(el("h3", { text: "Topics that look alike" }));
    const pairs = list(s.separate).map(obj);
    if (!pairs.length) out.push(el("p", { class: "small muted", text: "None." }));
    for (const p of pairs.slice(0, 10)) {
      const a = str(p.a), b = str(p.b);
      const wordButtons = (topic, ws) => list(ws).slice(0, 6).map((w) => el("button", { type: "button", class: "small", title: "make it a seed word of " + topic, onclick: guard(() => edit({ op: "add-seed", topic, word: str(w) })) }, str(w)));
      out.push(el("div", { class: "box small" },
        el("div", {}, el("a", { href: "#topic/" + enc(a), text: a }), " and ", el("a", { href: "#topic/" + enc(b), text: b }), el("span", { class: "muted", text: " (similarity " + fmt(p.similarity, 2) + ")" })),
        el("div", { class: "row" }, "Seed " + a + ":", wordButtons(a, p.words_a)),
        el("div", { class: "row" }, "Seed " + b + ":", wordButtons(b, p.words_b)),
        el("div", { class: "row" }, el("button", { type: "button", class: "small", onclick: guard(() => edit({ op: "merge", topic: a, other: b })) }, "Merge them"))));
    }
    out.push(el("h3", { text: "Topics that look like junk" }));
    const junk = list(s.junk).map(obj);
    if (!junk.length) out.push(el("p", { class: "small muted", text: "None." }));
    for (const j of junk) {
      const t = str(j.topic);
      out.push(el("div", { class: "small row" }, el("a", { href: "#topic/" + enc(t), text: t }), ": " + list(j.reasons).map(str).join("; "),
        el("button", { type: "button", class: "small danger", onclick: guard(() => edit({ op: "delete-topic", topic: t })) }, "Delete")));
    }
    return out;
  }

  async function historyPanel() {
    const res = obj(await api("/api/rounds"));
    const rounds = list(res.rounds).map(obj).reverse();
    const st = obj(S.status);
    return [el("div", { class: "row" },
      el("button", { type: "button", disabled: !st.can_undo, onclick: guard(() => action("undo")) }, "Undo"),
      el("button", { type: "button", disabled: !st.can_redo, onclick: guard(() => action("redo")) }, "Redo"),
      el("span", { class: "small muted", text: "Undo and redo move between rounds without refitting." })),
    el("ol", { class: "list small", reversed: true }, rounds.map((r) => {
      const acc = obj(r.accuracy);
      return el("li", { class: r.current ? "current" : "" },
        el("div", {}, "Round " + num(r.number) + (r.current ? " (current)" : "") + (r.redo ? " (redo)" : "") + " · " + str(r.kind) + " · k " + num(r.k) +
          " · " + num(r.seconds).toFixed(1) + " s" + (str(acc.state) === "done" ? " · " + num(acc.mean).toFixed(1) + "%" : "")),
        el("div", { class: "muted" }, str(r.created)),
        list(r.changes).length ? el("ul", {}, list(r.changes).map((c) => el("li", { text: str(c) }))) : null);
    }))];
  }

  function modelPanel() {
    const st = obj(S.state);
    const kinds = list(st.kinds).map(str);
    const supervised = list(st.supervised).map(str);
    const kindSel = el("select", { "aria-label": "model kind" }, kinds.map((k) => el("option", { value: k, selected: k === str(st.kind), text: k + (supervised.includes(k) ? " (learns from labels)" : "") })));
    const kIn = el("input", { type: "number", min: "1", max: "1000", value: String(num(st.k) || 1), "aria-label": "number of topics" });
    const stopIn = el("input", { "aria-label": "stopword to add", list: "vocablist", placeholder: "word", required: true });
    hookVocab(stopIn);
    const labels = list(st.labels).map(obj);
    const out = [
      el("h3", { text: "Model" }),
      el("form", { class: "row", onsubmit: guard(async (ev) => {
        ev.preventDefault();
        if (kindSel.value && kindSel.value !== str(st.kind)) await edit({ op: "set-kind", kind: kindSel.value });
      }) }, el("label", {}, "Kind ", kindSel), el("button", { type: "submit" }, "Change kind")),
      el("form", { class: "row", onsubmit: guard(async (ev) => {
        ev.preventDefault();
        const k = parseInt(kIn.value, 10);
        if (!(k >= 1)) { say("The number of topics is a whole number ≥ 1.", "err"); return; }
        if (k !== num(st.k)) await edit({ op: "set-k", k });
      }) }, el("label", {}, "Topics ", kIn), el("button", { type: "submit" }, "Change k")),
      el("h3", { text: "Labels" }),
      el("p", { class: "small", text: plural(num(st.labeled), "labeled document") }),
      labels.length ? el("div", {}, labels.map((l) => el("span", { class: "tag label", text: str(l.label) + " " + num(l.docs) }))) : el("p", { class: "small muted", text: "No labels yet: label documents from a topic, a search or the suggestions." }),
      el("h3", { text: "Stopwords" }),
      el("form", { class: "row", onsubmit: guard(async (ev) => {
        ev.preventDefault();
        const w = stopIn.value.trim();
        if (w && await edit({ op: "add-stopword", word: w })) stopIn.value = "";
      }) }, stopIn, el("button", { type: "submit" }, "Add stopword")),
      el("div", {}, list(st.stopwords).length ? list(st.stopwords).map((w) => el("span", { class: "tag" }, str(w),
        el("button", { type: "button", "aria-label": "put " + str(w) + " back", title: "back into the vocabulary", onclick: guard(() => edit({ op: "remove-stopword", word: str(w) })) }, "×"))) : el("span", { class: "small muted", text: "None added." })),
      el("h3", { text: "Documents left out" }),
      el("div", {}, list(st.removed).length ? list(st.removed).slice(0, 200).map((id) => el("span", { class: "tag" }, el("a", { href: "#doc/" + enc(str(id)), text: str(id) }),
        el("button", { type: "button", "aria-label": "restore " + str(id), title: "back into the model", onclick: guard(() => edit({ op: "restore-doc", docs: [str(id)] })) }, "×"))) : el("span", { class: "small muted", text: "None." })),
    ];
    const notes = list(obj(S.status).notes).map(str);
    if (notes.length) out.push(el("h3", { text: "Notes" }), el("ul", { class: "small" }, notes.map((n) => el("li", { text: n }))));
    return out;
  }

  async function exportPanel() {
    const items = [
      ["model", "model.semitopic", "The model file (semitopic transform, predict, serve)"],
      ["anchors", "anchors.txt", "The seed and exclusion words (fit --anchors)"],
      ["labels", "labels.csv", "The labels, id,label"],
      ["report", "report.html", "An HTML report of this round"],
      ["command", "command.txt", "The semitopic fit command that reproduces this round"],
    ];
    let cmd = "";
    try {
      const r = await fetch("/api/export/command", { headers: tokenHeaders(), cache: "no-store" });
      if (r.ok) cmd = await r.text();
    } catch (e) { cmd = ""; }
    return [el("h3", { text: "Export the current round" }),
      el("ul", { class: "list" }, items.map(([what, file, text]) => el("li", {},
        el("a", { href: "/api/export/" + what, download: file, onclick: downloadWithToken(what, file) }, file), el("div", { class: "small muted", text })))),
      cmd ? [el("h3", { text: "Command" }), el("pre", { class: "cmd", text: cmd })] : null];
  }
  // downloadWithToken fetches an export with the token header when one is
  // needed (a plain link cannot send it) and saves it.
  function downloadWithToken(what, file) {
    return function (ev) {
      if (!S.token) return;
      ev.preventDefault();
      guard(async () => {
        const r = await fetch("/api/export/" + what, { headers: tokenHeaders(), cache: "no-store" });
        if (!r.ok) throw new ApiError(r.status, "could not export " + file + " (" + r.status + ")", {});
        const url = URL.createObjectURL(await r.blob());
        const a = el("a", { href: url, download: file });
        document.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 30000);
      })();
    };
  }

  // ---- Keyboard ----
  function typing(t) {
    return t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  }
  function moveTopic(step) {
    const names = S.topics.filter((t) => !t.empty).map((t) => str(t.name));
    if (!names.length) return;
    const cur = names.indexOf(viewTopic() || S.lastTopic);
    const next = names[(cur + step + names.length) % names.length];
    go("topic", next);
    const b = document.querySelector('.topic[data-topic="' + CSS.escape(next) + '"]');
    if (b) b.focus();
  }
  function onKey(ev) {
    if (ev.key === "Escape") {
      const f = document.querySelector(".inline-form");
      if (f) f.remove();
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) return;
    switch (ev.key) {
      case "/": ev.preventDefault(); $("q").focus(); $("q").select(); break;
      case "u": ev.preventDefault(); action("undo"); break;
      case "U": ev.preventDefault(); action("redo"); break;
      case "r": ev.preventDefault(); action("refit"); break;
      case "j": ev.preventDefault(); moveTopic(1); break;
      case "k": ev.preventDefault(); moveTopic(-1); break;
      case "v": ev.preventDefault(); go("vocab", ""); break;
      case "l": {
        const card = document.activeElement && document.activeElement.closest ? document.activeElement.closest(".card[data-id]") : null;
        if (card) { ev.preventDefault(); guard(() => labelOne(card.getAttribute("data-id")))(); }
        else say("Focus a document first (Tab to it), then press l to give it the label in the toolbar.", "");
        break;
      }
    }
  }
  function onTabKey(ev) {
    const tabs = Array.from(document.querySelectorAll("[role=tab]"));
    const i = tabs.indexOf(ev.target);
    if (i < 0) return;
    let j = -1;
    if (ev.key === "ArrowRight") j = (i + 1) % tabs.length;
    else if (ev.key === "ArrowLeft") j = (i - 1 + tabs.length) % tabs.length;
    else if (ev.key === "Home") j = 0;
    else if (ev.key === "End") j = tabs.length - 1;
    if (j < 0) return;
    ev.preventDefault();
    selectTab(tabs[j].getAttribute("data-tab"), true);
    renderPanel();
  }

  // ---- Start ----
  function readToken() {
    let t = "";
    try {
      const u = new URL(location.href);
      t = u.searchParams.get("token") || "";
      if (t) {
        u.searchParams.delete("token");
        history.replaceState(null, "", u.pathname + u.search + u.hash);
      }
    } catch (e) { t = ""; }
    try {
      if (t) sessionStorage.setItem("semitopic-token", t);
      S.token = sessionStorage.getItem("semitopic-token") || t;
    } catch (e) {
      S.token = t;
    }
  }
  function start() {
    readToken();
    document.addEventListener("keydown", onKey);
    $("side").addEventListener("keydown", onTabKey);
    for (const b of document.querySelectorAll("[role=tab]")) {
      b.addEventListener("click", () => { selectTab(b.getAttribute("data-tab"), false); renderPanel(); });
    }
    $("undo").addEventListener("click", () => action("undo"));
    $("redo").addEventListener("click", () => action("redo"));
    $("refit").addEventListener("click", () => action("refit"));
    $("searchform").addEventListener("submit", (ev) => { ev.preventDefault(); go("search", $("q").value.trim()); });
    $("newtopic").addEventListener("click", () => { $("newtopicform").hidden = false; $("newname").focus(); });
    $("newcancel").addEventListener("click", () => { $("newtopicform").hidden = true; });
    hookVocab($("newwords"));
    $("newtopicform").addEventListener("submit", guard(async (ev) => {
      ev.preventDefault();
      const name = $("newname").value.trim();
      const ws = words($("newwords").value);
      if (!name || !ws.length) { say("A new topic needs a name and at least one seed word.", "err"); return; }
      if (await edit({ op: "create-topic", name, words: ws })) {
        $("newtopicform").hidden = true;
        $("newname").value = "";
        $("newwords").value = "";
      }
    }));
    window.addEventListener("hashchange", () => { route(); });
    window.addEventListener("unhandledrejection", (ev) => { ev.preventDefault(); fail(ev.reason); });
    selectTab("changes", false);
    setInterval(() => { if (obj(S.status).refitting) renderFit(); }, 500);
    api("/api/status").then(applyStatus).catch(fail).finally(() => { streamStatus(); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
