/**
 * The natural-sort key of a trace name (`traces.name_key`, filled at ingest, migration 006):
 * every run of digits becomes its length in two digits followed by the digits without
 * leading zeros, so comparing keys as bytes orders `sample_2` before `sample_10`. Text
 * between digit runs compares as before (bytes); an encoded run still starts with a digit,
 * so a name with digits where another has a letter sorts as the plain name would. Runs of
 * more than 99 significant digits compare by their first 99.
 */
export function nameKey(name: string): string {
  return name.replace(/\d+/g, (run) => {
    const digits = run.replace(/^0+(?=\d)/, '').slice(0, 99);
    return String(digits.length).padStart(2, '0') + digits;
  });
}
