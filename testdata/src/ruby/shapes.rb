# frozen_string_literal: true
# shapes.rb: every kind of Ruby symbol symedit knows, and the Ruby that is
# not a symbol. Hand-written for symedit's tests.

# Geometry is a module: a namespace.
module Geometry
  ORIGIN = [0, 0].freeze # a constant: not a symbol

  # Shape is a class in a module.
  class Shape
    attr_accessor :name # not a symbol: a method call

    def initialize(name)
      @name = name
    end

    # area is a method.
    def area
      raise NotImplementedError
    end

    def self.registry
      @registry ||= {}
    end

    class << self
      def register(kind)
        registry[kind] = self
      end

      private def reset!
        @registry = {}
      end
    end

    def ==(other) = other.is_a?(Shape) && other.name == name

    def !=(other)
      !(self == other)
    end

    def <=>(other)
      area <=> other.area
    end

    def [](key)
      instance_variable_get("@#{key}")
    end

    def name=(value)
      @name = value.to_s
    end

    def empty? = area.zero?

    define_method(:kind) { self.class.name } # not a symbol

    protected

    def scale(factor)
      def helper(x) # a def in a def: a function under scale
        x
      end
      helper(factor)
    end
  end

  class Circle < Shape
    def initialize(radius)
      super("circle")
      @radius = radius
    end

    def area
      Math::PI * @radius**2
    end
  end

  Point = Struct.new(:x, :y) do
    def distance(other) # in a block: a method of Geometry
      Math.sqrt((x - other.x)**2 + (y - other.y)**2)
    end
  end
end

# A class named by a path is named after its last constant.
class Geometry::Square < Geometry::Shape
  def initialize(side)
    super("square")
    @side = side
  end

  def area
    @side * @side
  end
end

module Geometry
  module Util
    def self.clamp(x, lo, hi)
      [[x, lo].max, hi].min
    end

    def self.clamp(x, lo) # a second clamp: self.clamp[2]
      [x, lo].max
    end
  end
end

def main
  shape = Geometry::Circle.new(1)
  def shape.describe
    "circle of area #{area}"
  end
  shape.describe
end

Geometry::Shape.register(:circle)
