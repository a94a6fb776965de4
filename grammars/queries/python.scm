; symbols query for python (placeholder)
