<?php
// shapes.php: every kind of PHP symbol symedit knows, and the PHP that is
// not a symbol. Hand-written for symedit's tests. Braced namespaces: a file
// may not mix them with namespace X; statements.

declare(strict_types=1);

namespace Geometry {
    use InvalidArgumentException;

    /** Something with an area. */
    interface HasArea
    {
        public const UNIT = 'cm'; // a constant: not a symbol

        public function area(): float;
    }

    /** Scaling, mixed into shapes. */
    trait Scales
    {
        private float $factor = 1.0; // a property: not a symbol

        public function scale(float $by): static
        {
            $this->factor *= $by;
            return $this;
        }
    }

    enum Unit: string
    {
        case Centimetre = 'cm'; // an enum case: not a symbol
        case Inch = 'in';

        public function perMetre(): int
        {
            return match ($this) {
                Unit::Centimetre => 100,
                Unit::Inch => 39,
            };
        }
    }

    /**
     * A shape: its doc comment is not part of its range, its attributes
     * are.
     */
    #[Attribute]
    #[Deprecated(reason: 'use Polygon')]
    abstract class Shape implements HasArea
    {
        use Scales;

        public function __construct(protected string $name)
        {
        }

        /** The area, in square units. */
        #[Pure]
        abstract public function area(): float;

        final public static function describe(HasArea $s): string
        {
            return sprintf('%s of area %.2f', get_class($s), $s->area());
        }

        public function list(): array // a method named after a keyword
        {
            return [$this->name];
        }
    }

    final class Circle extends Shape
    {
        public function __construct(private float $radius)
        {
            parent::__construct('circle');
        }

        public function area(): float
        {
            return M_PI * $this->radius ** 2;
        }
    }

    readonly class Point
    {
        public function __construct(public float $x, public float $y)
        {
        }
    }

    function unit(string $code): Unit
    {
        // A function declared in a function: a symbol under it.
        function fail(string $code): never
        {
            throw new InvalidArgumentException("unknown unit $code");
        }

        return Unit::tryFrom($code) ?? fail($code);
    }

    function origin(): HasArea
    {
        // An anonymous class is not a symbol; its methods are, under origin.
        return new class implements HasArea {
            public function area(): float
            {
                return 0.0;
            }
        };
    }
}

namespace Geometry\Util {
    if (!function_exists('Geometry\Util\clamp')) {
        function clamp(float $x, float $lo, float $hi): float
        {
            return max($lo, min($x, $hi));
        }
    } else {
        function clamp(float $x, float $lo): float // a second clamp: clamp[2]
        {
            return max($lo, $x);
        }
    }

    $square = fn (float $x): float => $x * $x; // a closure: not a symbol
}

namespace {
    // The global namespace: not a symbol; what is in it is top-level.
    function main(): void
    {
        echo \Geometry\Shape::describe(new \Geometry\Circle(1.0)), "\n";
    }
}
