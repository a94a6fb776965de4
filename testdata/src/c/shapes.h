/* Shapes: a header of prototypes, tagged types and typedefs. */
#ifndef SHAPES_H
#define SHAPES_H

#include <stddef.h>

/* A point in the plane. */
struct point {
    double x, y;
};

typedef struct point point_t;

/* The typedef and the struct it defines are two symbols side by side. */
typedef struct shape {
    int kind;
    union {
        double radius;
        struct point corner;
    } u;
} shape_t, *shape_ptr;

union number {
    long i;
    double d;
};

enum shape_kind { SHAPE_CIRCLE, SHAPE_SQUARE };

typedef double (*area_fn)(const shape_t *);

double shape_area(const shape_t *s);
extern size_t shape_count(const shape_t *shapes, size_t n, enum shape_kind kind);
__attribute__((warn_unused_result)) shape_ptr shape_new(int kind);
void shape_free(shape_ptr s), shape_reset(shape_ptr s);
const char *shape_name(int kind);
int (*shape_callback(int kind))(const shape_t *);

#endif
