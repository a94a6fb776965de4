; symbols query for javascript (placeholder)
