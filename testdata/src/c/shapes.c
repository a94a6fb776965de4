#include <stdlib.h>
#include <string.h>
#include "shapes.h"

#define PI 3.14159265358979

static double circle_area(const shape_t *s);

/* The area of s. */
double shape_area(const shape_t *s)
{
    switch (s->kind) {
    case SHAPE_CIRCLE:
        return circle_area(s);
    default:
        return s->u.corner.x * s->u.corner.y;
    }
}

static double circle_area(const shape_t *s)
{
    return PI * s->u.radius * s->u.radius;
}

size_t shape_count(const shape_t *shapes, size_t n, enum shape_kind kind)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (shapes[i].kind == (int)kind) {
            count++;
        }
    }
    return count;
}

shape_ptr shape_new(int kind)
{
    /* A struct defined in a function is a symbol nested in it; a
       prototype or a typedef there is not. */
    struct defaults {
        int kind;
        double radius;
    } d = { kind, 1.0 };
    int helper(int);
    typedef int local_t;
    shape_ptr s = calloc(1, sizeof *s);
    if (s != NULL) {
        s->kind = d.kind;
        s->u.radius = d.radius;
    }
    return s;
}

void shape_free(shape_ptr s)
{
    free(s);
}

void shape_reset(shape_ptr s)
{
    memset(s, 0, sizeof *s);
}

static inline int is_round(int kind) { return kind == SHAPE_CIRCLE; }

__attribute__((unused)) static const char *const names[] = { "circle", "square" };

const char *shape_name(int kind)
{
    return names[kind];
}

static double square_area(const shape_t *s)
{
    return s->u.corner.x * s->u.corner.x;
}

int (*shape_callback(int kind))(const shape_t *)
{
    (void)kind;
    return NULL;
}

_Noreturn void shape_abort(void);

void shape_abort(void)
{
    abort();
}
