// Chat widgets, their visitor sessions and messages (issue 15 items 3-4). Filled in by the widgets work.
export {};
