//go:build tools

// Package tools pins the prometheus and promtool commands build.sh compiles, so that
// `go mod tidy` keeps them (and all their dependencies) in go.mod/go.sum.
package tools

import (
	_ "github.com/prometheus/prometheus/cmd/prometheus"
	_ "github.com/prometheus/prometheus/cmd/promtool"
)
