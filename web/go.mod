// This file keeps web/ (and its node_modules) out of the Go module.
module members/web

go 1.26
