// Hand-written for symedit's tests: every kind of C# symbol, with
// attributes, modifiers and XML doc comments where they matter.
using System;
using System.Collections.Generic;

[assembly: CLSCompliant(false)]

namespace Shapes.Geometry
{
    /// <summary>A shape's outline.</summary>
    public delegate double Measure(IShape shape);

    /// <summary>Something with an area.</summary>
    public interface IShape
    {
        double Area();
        string Name { get; }
        event EventHandler Changed;
        double this[int i] { get; }
    }

    [Flags]
    public enum Corners
    {
        None = 0,
        Round = 1,
    }

    /// <summary>A point.</summary>
    [Serializable]
    public struct Point
    {
        public readonly double X, Y;

        public Point(double x, double y) { X = x; Y = y; }

        public static Point operator +(Point a, Point b) => new Point(a.X + b.X, a.Y + b.Y);

        public static implicit operator Point(double d) => new Point(d, d);

        public static explicit operator double(Point p) => p.X;

        public override string ToString() => X + "," + Y;
    }

    /// <summary>A circle.</summary>
    [Serializable]
    [Obsolete("use Ellipse")]
    public sealed partial class Circle : IShape, IDisposable
    {
        private double radius;
        private EventHandler changed;

        /// <summary>Makes a circle.</summary>
        public Circle(double r) { radius = r; }

        static Circle() { }

        ~Circle() { }

        public double Radius
        {
            get { return radius; }
            set { radius = value; }
        }

        public string Name => "circle";

        public double this[int i] { get { return radius * i; } }

        public event EventHandler Changed
        {
            add { changed += value; }
            remove { changed -= value; }
        }

        public event EventHandler Moved;

        [Obsolete]
        public double Area() => Math.PI * radius * radius;

        public double Area(double scale)
        {
            return Math.PI * radius * radius * scale * scale;
        }

        void IDisposable.Dispose() { }

        public class Builder
        {
            public Circle Build() { return new Circle(1); }
        }

        internal protected abstract class Nested<T> where T : class
        {
            public abstract T Make();
        }
    }

    namespace Inner
    {
        static class Helpers
        {
            public static int Twice(this int x) => 2 * x;

            public static IEnumerable<int> Count(int n)
            {
                for (int i = 0; i < n; i++)
                {
                    yield return i;
                }
            }
        }
    }
}

namespace Shapes.Geometry
{
    partial class Circle
    {
        public double Diameter() { return 2 * radius; }
    }
}

class Program
{
    static void Main() { }
}
