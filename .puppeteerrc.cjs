/** pith drives the system Chromium; Puppeteer must never download a browser. */
module.exports = { skipDownload: true };
