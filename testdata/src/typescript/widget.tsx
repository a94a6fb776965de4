// symedit test fixture: hand-written for symedit.
// React-style components; syntactically valid TSX (not type-checked: no React types here).
import React, { Component, useState } from "react";

/** Props shared by the small presentational components. */
export interface ButtonProps {
  label: string;
  disabled?: boolean;
  onClick(): void;
}

/** Props of a generic list. */
interface ListProps<T> {
  items: T[];
  render: (item: T) => React.ReactNode;
}

type Tone = "info" | "warning" | "error";

/** A coloured badge. */
export function Badge({ tone, text }: { tone: Tone; text: string }) {
  return <span className={`badge badge-${tone}`}>{text}</span>;
}

/** A plain button, written as an arrow component. */
export const Button = ({ label, disabled = false, onClick }: ButtonProps) => (
  <button type="button" disabled={disabled} onClick={() => onClick()}>
    {label}
  </button>
);

/** Renders any list; note the `<T,>` needed for generics in .tsx files. */
const List = <T,>({ items, render }: ListProps<T>) => {
  return (
    <ul>
      {items.map((item, i) => (
        <li key={i}>{render(item)}</li>
      ))}
    </ul>
  );
};

/** A toolbar with a local click handler. */
export function Toolbar(props: { title: string; actions: ButtonProps[] }) {
  const [open, setOpen] = useState(false);

  function toggle(): void {
    setOpen(!open);
  }

  return (
    <header>
      <h1 onClick={toggle}>{props.title}</h1>
      {open && <List items={props.actions} render={(a) => <Button {...a} />} />}
      <Badge tone="info" text={open ? "open" : "closed"} />
    </header>
  );
}

interface CounterProps {
  start?: number;
}

interface CounterState {
  count: number;
}

/** A class component with state. */
export default class Counter extends Component<CounterProps, CounterState> {
  state: CounterState = { count: this.props.start ?? 0 };

  /** Arrow-function property: not a method. */
  private increment = () => {
    this.setState((s) => ({ count: s.count + 1 }));
  };

  componentDidMount(): void {
    document.title = `count: ${this.state.count}`;
  }

  render() {
    return (
      <>
        <span>{this.state.count}</span>
        <Button label="+1" onClick={this.increment} />
      </>
    );
  }
}
