// Tables of the ideas feature (issue 14).
export {};
