//! rustwork's second file, the module `rustwork::shapes`: a trait with
//! three implementations, called through `Box<dyn Shape>` (trait objects)
//! and through generics (one instantiation per shape); `area()`, a free
//! function of the module, walks a slice of trait objects.

pub trait Shape {
    fn area(&self) -> f64;
    fn name(&self) -> &'static str;
}

pub struct Circle {
    pub r: f64,
}

pub struct Rect {
    pub w: f64,
    pub h: f64,
}

pub struct Tri {
    pub side: f64,
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        3.14159 * self.r * self.r
    }
    fn name(&self) -> &'static str {
        "circle"
    }
}

impl Shape for Rect {
    fn area(&self) -> f64 {
        self.w * self.h
    }
    fn name(&self) -> &'static str {
        "rect"
    }
}

impl Shape for Tri {
    fn area(&self) -> f64 {
        self.side * self.side * 0.4330127
    }
    fn name(&self) -> &'static str {
        "tri"
    }
}

/// A shape of each kind in turn, boxed as a trait object.
pub fn make(kind: u32, size: f64) -> Box<dyn Shape> {
    match kind % 3 {
        0 => Box::new(Circle { r: size }),
        1 => Box::new(Rect { w: size, h: size / 2.0 + 1.0 }),
        _ => Box::new(Tri { side: size }),
    }
}

/// The total area of trait objects: one virtual call each.
#[inline(never)]
pub fn area(shapes: &[Box<dyn Shape>]) -> f64 {
    shapes.iter().map(|s| s.area()).sum()
}

/// The total area of shapes of one type: a generic function, one
/// instantiation per type, with `area()` called directly.
#[inline(never)]
pub fn total<S: Shape>(shapes: &[S]) -> f64 {
    let mut sum = 0.0;
    for s in shapes {
        sum += s.area();
    }
    sum
}
