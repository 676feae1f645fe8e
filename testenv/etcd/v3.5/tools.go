//go:build tools

// Package tools pins the main packages build.sh compiles, so that `go mod tidy` keeps them.
package tools

import (
	_ "go.etcd.io/etcd/etcdctl/v3"
	_ "go.etcd.io/etcd/etcdutl/v3"
	_ "go.etcd.io/etcd/server/v3/etcdmain"
)
