//go:build tools

// Package tools pins fake-gcs-server's main package, so that `go mod tidy` keeps it (and
// all its dependencies) in go.mod/go.sum for build.sh.
package tools

import (
	_ "github.com/fsouza/fake-gcs-server"
)
