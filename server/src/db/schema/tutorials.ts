// Tables of the tutorials feature (issue 15).
export {};
