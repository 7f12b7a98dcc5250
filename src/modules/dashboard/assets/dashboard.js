// The copy button of a new key: the only script of the dashboard (the CSP allows this file alone).
document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-copy]');
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  const status = button.parentElement.querySelector('.copied');
  try {
    await navigator.clipboard.writeText(field.value);
    if (status) status.textContent = 'Copied.';
  } catch {
    field.select();
    if (status) status.textContent = 'Selected: press Ctrl+C (or ⌘C) to copy.';
  }
});
