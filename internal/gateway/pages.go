package gateway

import "net/http"

// pageRoutes registers the customer pages.
func (g *Gateway) pageRoutes(mux *http.ServeMux) {}
