//! Shapes: a hand-written fixture for symedit with every kind of Rust
//! symbol, attributes and doc comments in each position.

use std::fmt;

/// The largest side any shape may have. Constants are not symbols.
pub const MAX_SIDE: f64 = 1.0e6;

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A point in the plane.
///
/// The doc comment above the first attribute is not part of the range.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/** A block doc comment, above no attribute: not part of the range. */
pub(crate) struct Unit;

#[derive(Debug)]
/// A doc comment between an attribute and the item: inside the range.
pub enum Shape {
    Circle { center: Point, radius: f64 },
    Square(Point, f64),
    Empty,
}

#[repr(C)]
pub union Bits {
    pub int: u64,
    pub float: f64,
}

/// Anything with an area.
pub trait Area {
    /// The unit of the area.
    type Unit;

    /// The area, in square units.
    fn area(&self) -> f64;

    /// Twice the area: a default method.
    #[inline]
    fn double(&self) -> f64 {
        2.0 * self.area()
    }
}

impl Point {
    /// The origin.
    pub const fn origin() -> Self {
        Point { x: 0.0, y: 0.0 }
    }

    pub fn distance(&self, other: &Point) -> f64 {
        fn square(v: f64) -> f64 {
            v * v
        }
        (square(self.x - other.x) + square(self.y - other.y)).sqrt()
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl Area for Shape {
    type Unit = f64;

    fn area(&self) -> f64 {
        match self {
            Shape::Circle { radius, .. } => std::f64::consts::PI * radius * radius,
            Shape::Square(_, side) => side * side,
            Shape::Empty => 0.0,
        }
    }
}

/// A stack of shapes, generic over what it holds.
pub struct Stack<T> {
    items: Vec<T>,
}

impl<T: Clone> Stack<T>
where
    T: fmt::Debug,
{
    pub fn push(&mut self, item: T) {
        self.items.push(item);
    }

    pub fn peek(&self) -> Option<&T> {
        self.items.last()
    }
}

impl<T> From<Vec<T>> for Stack<T> {
    fn from(items: Vec<T>) -> Self {
        Stack { items }
    }
}

impl<T> fmt::Debug for Stack<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Stack")
    }
}

// SAFETY: Bits holds plain numbers.
unsafe impl Send for Bits {}

impl<'a> Area for &'a Point {
    type Unit = ();

    fn area(&self) -> f64 {
        0.0
    }
}

/// A type alias.
pub type Points = Vec<Point>;

/// Squares a number.
macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

pub async fn load(path: &str) -> Vec<Point> {
    let _ = path;
    Vec::new()
}

pub unsafe extern "C" fn raw_area(side: f64) -> f64 {
    square!(side)
}

pub mod geometry {
    pub mod angles {
        pub fn degrees(radians: f64) -> f64 {
            radians.to_degrees()
        }
    }

    impl super::Unit {
        pub fn new() -> Self {
            super::Unit
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_is_zero() {
        assert_eq!(Point::origin(), Point { x: 0.0, y: 0.0 });
    }

    #[test]
    #[should_panic]
    fn overflow() {
        panic!("too big");
    }
}
