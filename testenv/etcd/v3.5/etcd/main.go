// Command etcd is etcd 3.5's server: the module proxy does not serve etcd 3.5's root module,
// which holds its main package, so this one calls the server module's entry point.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
