// Shared formatting: player letters. The page does no arithmetic of its own; every number
// it shows is a report's (exact values arrive as text such as "7/3").
export const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
