; symbols query for java (placeholder)
