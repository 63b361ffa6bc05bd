// Tables of the workflows feature (issue 14).
export {};
