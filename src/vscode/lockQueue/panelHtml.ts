// The lock-queue panel's HTML: strict CSP (nothing but our nonce'd script, our style sheets and the icon font),
// theme colours from the style sheet, the script bundle from dist/webview.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

export function webviewRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const nonce = randomBytes(16).toString('base64');
  const uri = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...parts)).toString();
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `font-src ${webview.cspSource}`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="${escapeAttribute(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${uri('dist', 'webview', 'codicon.css')}">
<link rel="stylesheet" nonce="${nonce}" href="${uri('media', 'lockQueue.css')}">
<title>${escapeAttribute(title)}</title>
</head>
<body>
<script nonce="${nonce}" src="${uri('dist', 'webview', 'lockQueue.js')}"></script>
</body>
</html>`;
}
