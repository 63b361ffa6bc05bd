// Tables of the documents feature (issue 15).
export {};
