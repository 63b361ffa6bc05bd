// Saves a file the API returned (a message's PDF or Word export, an invoice's PDF) under the given name.
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The click has started the download; the object URL can go once the event loop has moved on.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
