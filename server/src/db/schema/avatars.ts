// Tables of the avatars area (issue 13); filled in by that area's work.
export {};
