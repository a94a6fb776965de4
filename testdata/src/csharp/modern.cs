// Hand-written for symedit's tests: C# 9 to 11 declarations (a
// file-scoped namespace, records, init accessors, local functions) that
// Mono's mcs predates.
namespace Shapes.Modern;

using System;

/// <summary>A point as a record.</summary>
public record Point(double X, double Y);

[Serializable]
public record class Named(string Name)
{
    public string Upper => Name.ToUpperInvariant();
}

public readonly record struct Size(int Width, int Height)
{
    public int Area() => Width * Height;
}

public record Shape
{
    public required string Id { get; init; }

    public static int Sum(int[] xs)
    {
        int total = 0;
        foreach (var x in xs)
        {
            Add(x);
        }
        return total;

        void Add(int x)
        {
            total += Twice(x);

            static int Twice(int v) => 2 * v;
        }
    }
}

public interface IParse<TSelf> where TSelf : IParse<TSelf>
{
    static abstract TSelf Parse(string s);
}

/// <summary>Tests, with attributes a test framework reads.</summary>
public sealed class Tests : IParse<Tests>
{
    [Test]
    [Category("fast")]
    public async System.Threading.Tasks.Task RunsAsync()
    {
        await System.Threading.Tasks.Task.Yield();
    }

    static Tests IParse<Tests>.Parse(string s) => new Tests();

    public static implicit operator global::System.Int32(Tests t) => 0;

    int this[string key] => key.Length;
}

file class Local
{
    public void Run() { }
}
