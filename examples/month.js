// The example page's script: one followMonth call does the work; this file only renders.
import { ApiError, createClient, followMonth } from '../sdk/dist/index.js';

const params = new URLSearchParams(window.location.search);
const now = new Date();
const [year, month] = (params.get('month') ?? `${now.getFullYear()}-${now.getMonth() + 1}`).split('-').map(Number);
const client = createClient({
  baseUrl: params.get('api') ?? window.location.origin,
  live: {
    transport: params.get('transport') ?? 'auto',
    // A silent connection is replaced after this long (the server's heartbeats and pongs keep a good one busy).
    idleTimeoutMs: Number(params.get('idle') ?? 60_000),
  },
});

const list = document.getElementById('schedules');
const status = document.getElementById('status');
const errorLine = document.getElementById('error');
document.getElementById('title').textContent = `${year}년 ${month}월 일정`;

const STATUS_TEXT = { connecting: '연결 중…', live: '실시간', waiting: '연결이 끊겨 다시 연결합니다…', closed: '연결이 종료되었습니다' };

function render(listing) {
  // textContent only: titles come from the server and are never parsed as HTML.
  list.replaceChildren(...listing.schedules.map((item) => {
    const li = document.createElement('li');
    li.dataset.id = String(item.id);
    const when = document.createElement('time');
    when.dateTime = item.date;
    when.textContent = `${item.date.slice(5)} ${item.time ?? ''}`.trim();
    li.append(when, item.title);
    return li;
  }));
}

window.followed = followMonth(client, year, month, {
  onUpdate: render,
  onStatus: (state) => {
    status.dataset.status = state;
    status.textContent = STATUS_TEXT[state] ?? state;
  },
  onError: (error) => {
    errorLine.hidden = false;
    errorLine.textContent = error instanceof ApiError ? `${error.message} (${error.code})` : String(error);
  },
});
