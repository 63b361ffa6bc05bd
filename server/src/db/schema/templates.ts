// Tables of the templates feature (issue 14).
export {};
