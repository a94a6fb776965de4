; symbols query for tsx (placeholder)
