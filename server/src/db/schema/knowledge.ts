// Tables of the knowledge area (issue 13); filled in by that area's work.
export {};
