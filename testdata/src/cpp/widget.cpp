#include "widget.hpp"


namespace gui {

namespace {
int instances = 0;
} // namespace

Widget::Widget(const char *name) : name_(name)
{
    ++instances;
}

Widget::~Widget()
{
    --instances;
}

bool Widget::operator==(const Widget &other) const
{
    return width_ == other.width_;
}

void swap(Widget &a, Widget &b) noexcept
{
    const char *name = a.name_;
    a.name_ = b.name_;
    b.name_ = name;
}

int Widget::count() { return instances; }

int detail::layout::columns(int width, int cell)
{
    return cell > 0 ? width / cell : 0;
}

/// A label is a widget with text.
class Label final : public Widget {
public:
    using Widget::Widget;

    void draw(Canvas &canvas) const override;

    static Label *make(const char *text)
    {
        return new Label(text);
    }
};

void Label::draw(Canvas &canvas) const
{
    // A class defined in a function is a symbol nested in it.
    struct Counter {
        int calls = 0;
        void hit() { calls++; }
    } counter;
    counter.hit();
    (void)canvas;
}

} // namespace gui

static int sum(const gui::Stack<int> &s)
{
    int total = 0;
    s.each([&total](int v) { total += v; });
    return total;
}

int main()
{
    gui::Stack<int> s;
    s.push(gui::clamp(3, 0, 10));
    return sum(s) == 3 ? 0 : 1;
}
