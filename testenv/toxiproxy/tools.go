//go:build tools

// Pins the Toxiproxy server that build.sh compiles; nothing here is built.
package tools

import _ "github.com/Shopify/toxiproxy/v2/cmd/server"
