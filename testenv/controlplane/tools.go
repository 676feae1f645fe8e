//go:build tools

// Package tools pins the main packages build.sh compiles, so that
// `go mod tidy` keeps them (and all their dependencies) in go.mod/go.sum.
package tools

import (
	_ "go.etcd.io/etcd/etcdctl/v3"
	_ "go.etcd.io/etcd/etcdutl/v3"
	_ "go.etcd.io/etcd/server/v3"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
)
