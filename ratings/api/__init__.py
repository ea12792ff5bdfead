"""The read-only JSON API (docs/api.md): views, the OpenAPI schema and the URLs."""
