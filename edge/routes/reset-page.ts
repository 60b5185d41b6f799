// The minimal page a password reset link opens when RESET_PAGE_URL is unset: a form that posts
// the new password with the link's token. Kept as strings (not files) so the compiled build has them;
// the script is a file of its own so a Content-Security-Policy without 'unsafe-inline' scripts allows it.
export const RESET_PAGE = Buffer.from(`<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>비밀번호 재설정</title>
<style>body{font-family:sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem}label,input,button{display:block;width:100%;margin:.5rem 0}#result{margin-top:1rem}</style>
</head>
<body>
<h1>비밀번호 재설정</h1>
<form id="reset">
<label for="password">새 비밀번호 (8자 이상)</label>
<input id="password" type="password" autocomplete="new-password" minlength="8" required>
<label for="again">새 비밀번호 확인</label>
<input id="again" type="password" autocomplete="new-password" minlength="8" required>
<button type="submit">비밀번호 바꾸기</button>
</form>
<p id="result" role="status"></p>
<script src="/auth/password/reset.js"></script>
</body>
</html>
`);

export const RESET_SCRIPT = Buffer.from(`// The minimal reset page: the token comes from the link's address, the new password from the form.
const form = document.getElementById('reset');
const result = document.getElementById('result');
const token = new URLSearchParams(location.search).get('token');
if (!token) result.textContent = '링크에 재설정 토큰이 없습니다. 메일의 링크를 다시 열어 주세요.';
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const password = document.getElementById('password').value;
  if (password !== document.getElementById('again').value) {
    result.textContent = '두 비밀번호가 다릅니다.';
    return;
  }
  const response = await fetch('/auth/password/reset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token, password }) });
  const body = await response.json().catch(() => ({}));
  result.textContent = body.message || body.error || \`오류 (\${response.status})\`;
  if (response.ok) form.hidden = true;
});
`);
