#!/bin/sh
# Regenerates the test-only keys of PemKeysTest with openssl, in the forms users have them.
set -e
cd "$(dirname "$0")"
openssl genrsa -traditional -out rsa-pkcs1.key 2048 2>/dev/null   # BEGIN RSA PRIVATE KEY
openssl pkcs8 -topk8 -nocrypt -in rsa-pkcs1.key -out rsa-pkcs8.key # BEGIN PRIVATE KEY
openssl ecparam -name prime256v1 -genkey -out ec-sec1.key          # EC PARAMETERS + BEGIN EC PRIVATE KEY
openssl pkcs8 -topk8 -nocrypt -in ec-sec1.key -out ec-pkcs8.key
openssl genpkey -algorithm ed25519 -out ed25519-pkcs8.key
openssl pkcs8 -topk8 -v2 aes-256-cbc -passout pass:secret -in rsa-pkcs1.key -out rsa-encrypted.key
for k in rsa-pkcs1 ec-sec1 ed25519-pkcs8; do
  openssl req -x509 -key "$k.key" -subj "/CN=$k" -days 36500 -out "$k.crt"
done
