package main

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/server"
)

func newServeCmd() *cobra.Command {
	var modelPath, addr string
	var maxBody int64
	var maxDocs int
	var grace time.Duration
	cmd := &cobra.Command{
		Use:   "serve --model M [--addr 127.0.0.1:8080]",
		Short: "Serve a saved model over HTTP: JSON API and a web page",
		Long: `serve answers:
  GET  /healthz        liveness
  GET  /v1/model       kind, topics, labels, vocabulary size, fit info
  GET  /v1/topics      topics with top words (?n=10)
  POST /v1/transform   {"text": "..."} or {"documents": [{"id": "a", "text": "..."}]}
                       -> topic weights, strongest topics, and labels for supervised models
  GET  /               a page to browse the topics and try a document
It logs one JSON line per request to standard error, limits request sizes,
and on SIGINT or SIGTERM stops accepting connections and lets requests in
flight finish (up to --grace).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if modelPath == "" {
				return fmt.Errorf("--model is required")
			}
			f, err := model.LoadFile(modelPath)
			if err != nil {
				return err
			}
			logger := slog.New(slog.NewJSONHandler(cmd.ErrOrStderr(), nil))
			s, err := server.New(f, server.Options{MaxBodyBytes: maxBody, MaxDocuments: maxDocs, Logger: logger})
			if err != nil {
				return err
			}
			logger.Info("model loaded", "path", modelPath, "kind", f.Model.Kind(), "topics", f.Model.NumTopics())
			return server.ListenAndServe(cmd.Context(), addr, s, logger, grace)
		},
	}
	cmd.Flags().StringVar(&modelPath, "model", "", "saved model file")
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	cmd.Flags().Int64Var(&maxBody, "max-body", 4<<20, "largest request body in bytes")
	cmd.Flags().IntVar(&maxDocs, "max-documents", 1000, "most documents per transform request")
	cmd.Flags().DurationVar(&grace, "grace", 10*time.Second, "time requests in flight get to finish on shutdown")
	return cmd
}
