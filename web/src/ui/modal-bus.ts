// Lets the error handler close every open modal (spec part 1 §8: a 412 closes any modal, then goes to /sorry).
type Closer = () => void;
const openModals = new Set<Closer>();

export function registerOpenModal(close: Closer): () => void {
  openModals.add(close);
  return () => {
    openModals.delete(close);
  };
}

export function closeAllModals() {
  [...openModals].forEach((close) => close());
}
