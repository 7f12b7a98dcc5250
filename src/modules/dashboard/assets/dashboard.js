// The dashboard's one script (the CSP allows this file alone): the copy button of a new key, and a
// running roster job's live progress.
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

// A running job's page asks for its progress each second, and shows the finished job's page once it stops.
const job = document.getElementById('job');
if (job && ['queued', 'running'].includes(job.dataset.status)) {
  const poll = async () => {
    try {
      const res = await fetch(`/dashboard/jobs/${job.dataset.job}/status`, { headers: { accept: 'application/json' } });
      if (!res.ok) return;
      const j = await res.json();
      if (!['queued', 'running'].includes(j.status)) return location.reload();
      const bar = document.getElementById('job-progress');
      bar.value = j.rows_done;
      document.getElementById('job-progress-label').textContent = `${j.rows_done.toLocaleString('en-US')} of ${j.rows_total.toLocaleString('en-US')} rows done`;
      document.getElementById('job-status').textContent = j.status;
      for (const cell of document.querySelectorAll('#job-counts [data-count]')) cell.textContent = j.counts[cell.dataset.count];
    } finally {
      setTimeout(poll, 1000);
    }
  };
  setTimeout(poll, 1000);
}
