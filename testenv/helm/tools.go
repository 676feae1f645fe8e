//go:build tools

// Package tools pins the helm command build.sh compiles, so that `go mod tidy`
// keeps it (and all its dependencies) in go.mod/go.sum.
package tools

import (
	_ "helm.sh/helm/v3/cmd/helm"
)
