/** The search filter for a case-insensitive name search (experiments/search, registered-models/search). */
export function nameFilter(query: string): string | undefined {
  const text = query.trim();
  return text ? `name ILIKE '%${text.replace(/'/g, "''")}%'` : undefined;
}
