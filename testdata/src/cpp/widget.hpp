// Widgets: a C++ header of classes, templates and namespaces.
#pragma once

#include <cstddef>

namespace gui {

class Canvas;

/// A widget draws itself on a canvas.
class Widget {
public:
    explicit Widget(const char *name);
    Widget(const Widget &other) = default;
    virtual ~Widget();

    virtual void draw(Canvas &canvas) const = 0;
    [[nodiscard]] std::size_t width() const { return width_; }
    const char *name() const noexcept { return name_; }

    Widget &operator=(const Widget &other) = default;
    bool operator==(const Widget &other) const;
    explicit operator bool() const { return name_ != nullptr; }

    friend bool operator<(const Widget &a, const Widget &b) { return a.width_ < b.width_; }
    friend void swap(Widget &a, Widget &b) noexcept;

    using size_type = std::size_t;
    typedef Widget *list[4];

    struct Style {
        int margin = 0;
        int padding = 0;
    };

    static int count();

protected:
    std::size_t width_ = 0;

private:
    const char *name_;
};

/// A fixed-size stack of values.
template <typename T, std::size_t N = 8>
class Stack {
public:
    void push(const T &value);
    T pop() { return items_[--size_]; }
    std::size_t size() const { return size_; }

    template <typename F>
    void each(F f) const
    {
        for (std::size_t i = 0; i < size_; i++) {
            f(items_[i]);
        }
    }

private:
    T items_[N];
    std::size_t size_ = 0;
};

template <typename T, std::size_t N>
void Stack<T, N>::push(const T &value)
{
    items_[size_++] = value;
}

template <>
class Stack<bool, 8> {
public:
    void push(bool value) { bits_ = (bits_ << 1) | value; }

private:
    unsigned bits_ = 0;
};

template <typename T>
using Pointers = T *[4];

template <typename T>
T clamp(T value, T low, T high)
{
    return value < low ? low : (high < value ? high : value);
}

enum class Align : unsigned char { Left, Center, Right };

union Color {
    unsigned rgba;
    unsigned char channel[4];
};

namespace detail::layout {
int columns(int width, int cell);
} // namespace detail::layout

inline namespace v1 {
struct Version {
    int major, minor;
};
} // namespace v1

} // namespace gui
