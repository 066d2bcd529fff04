/** JSON kept in text columns (the same on SQLite, PostgreSQL and MySQL). */
export const jsonText = {
  prepare: (value: unknown) =>
    value === undefined || value === null ? value : JSON.stringify(value),
  consume: (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value),
}
