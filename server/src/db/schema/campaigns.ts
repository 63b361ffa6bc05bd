// Tables of the campaigns feature (issue 15).
export {};
