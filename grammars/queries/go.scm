; symbols query for go (placeholder)
