/**
 * "Only the newest request lands": a generation counter shared by the requests of one kind
 * (opening a trace, walking, selecting a state, loading corpus pages). `next()` starts a new
 * generation and returns a ticket for it; `ticket()` joins the current generation (pages of
 * one query); `drop()` makes every ticket out of date. A ticket answers whether its
 * generation is still the newest, so an answer that arrives late is ignored.
 *
 *   const live = this.#opens.next();
 *   const info = await source.call('getTrace', { id });
 *   if (!live()) return;
 */
export type Ticket = () => boolean;

export class Newest {
  #generation = 0;

  next(): Ticket {
    this.#generation++;
    return this.ticket();
  }

  ticket(): Ticket {
    const g = this.#generation;
    return () => g === this.#generation;
  }

  drop(): void {
    this.#generation++;
  }
}
