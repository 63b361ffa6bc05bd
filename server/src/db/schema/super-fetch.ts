// Tables of the super-fetch feature (issue 14).
export {};
