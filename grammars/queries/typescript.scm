; symbols query for typescript (placeholder)
