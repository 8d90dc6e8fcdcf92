package server

import (
	"net/http"

	"github.com/squarely/squarely/internal/auth"
	"github.com/squarely/squarely/internal/domains"
	"github.com/squarely/squarely/internal/server/publicapi"
	"github.com/squarely/squarely/internal/store"
)

// routes is the table of every route. API routes go on api (paths under
// /api/, JSON in and out); everything else on site. Wrap a handler in
// user(…) to require a signed-in user (401 otherwise), or in
// s.auth.RequireAdmin for admins only (403). A route that acts on a
// workspace's work is wrapped in the permission it needs instead (issue 22,
// workspaces.go): read (every role), edit (editors up), manage (admins up)
// or own (owners); a weaker role gets 403.
func (s *server) routes() http.Handler {
	user := func(h http.HandlerFunc) http.Handler { return s.auth.RequireUser(h) }
	read, edit, manage, own := s.in(auth.PermRead), s.in(auth.PermEdit), s.in(auth.PermManage), s.in(auth.PermOwn)
	// A member yet to set up the 2FA their workspace requires still needs
	// these (issue 27): who they are, and switching workspace.
	beforeTwoFactor := s.beforeTwoFactor(auth.PermRead)

	api := http.NewServeMux()
	// Account and session (spec 01 §7 "Session").
	api.HandleFunc("POST /api/register", s.register)
	api.HandleFunc("POST /api/login", s.login)
	api.HandleFunc("POST /api/logout", s.logout)
	api.Handle("GET /api/user", beforeTwoFactor(s.currentUser))
	// Account security (issue 27): second factors, the sign-in's second step.
	api.HandleFunc("GET /api/login/2fa", s.pendingLogin)
	api.HandleFunc("POST /api/login/2fa", s.loginSecondFactor)
	api.Handle("GET /api/2fa", user(s.twoFactorStatus))
	api.Handle("POST /api/2fa/totp/setup", user(s.setupTOTP))
	api.Handle("POST /api/2fa/totp/enable", user(s.enableTOTP))
	api.Handle("POST /api/2fa/disable", user(s.disableTwoFactor))
	api.Handle("POST /api/2fa/recovery-codes", user(s.regenerateRecoveryCodes))
	api.Handle("GET /api/sessions", user(s.listSessions))
	api.Handle("DELETE /api/sessions/{id}", user(s.deleteSession))
	api.Handle("POST /api/sessions/revoke-others", user(s.revokeOtherSessions))
	api.HandleFunc("GET /api/auth/providers", s.signInProviders)
	api.HandleFunc("POST /api/auth/sso", s.findSSO) // issue 33 item 6
	api.Handle("POST /api/webauthn/register/begin", user(s.beginPasskeyRegistration))
	api.Handle("POST /api/webauthn/register/finish", user(s.finishPasskeyRegistration))
	api.Handle("GET /api/webauthn/credentials", user(s.listPasskeys))
	api.Handle("DELETE /api/webauthn/credentials/{id}", user(s.deletePasskey))
	api.HandleFunc("POST /api/webauthn/login/begin", s.beginPasskeyLogin)
	api.HandleFunc("POST /api/webauthn/login/finish", s.finishPasskeyLogin)

	// Generator: previews, downloads, saved static codes, uploads (issue 4).
	// A visitor route acts in a signed-in member's workspace, so its 2FA
	// requirement applies (visitorRoute).
	api.Handle("POST /api/generate-qrcode", s.visitorRoute(s.generateQRCode))
	api.Handle("POST /api/download-qrcode", s.visitorRoute(s.downloadQRCode))
	api.Handle("POST /api/preflight", s.visitorRoute(s.preflight)) // print preflight (issue 26)
	api.Handle("POST /api/track-generation", s.visitorRoute(s.trackGeneration))
	api.HandleFunc("GET /api/subdomain-info", s.subdomainInfo)
	api.Handle("POST /api/qrcodes", edit(s.createQRCode))
	api.Handle("GET /api/qrcodes", read(s.listQRCodes))
	api.Handle("GET /api/qrcodes/{id}/image", read(s.qrCodeImage))
	api.Handle("GET /api/qrcodes/{id}/preflight", read(s.qrCodePreflight))
	api.Handle("POST /api/upload-pdf", edit(s.uploadPDF))
	api.Handle("POST /api/upload-image", s.visitorRoute(s.uploadImage))
	api.Handle("POST /api/upload-logo", edit(s.uploadLogo))

	// Dashboard: dynamic codes, rename and delete, analytics, trial (issue 5).
	api.Handle("POST /api/dynamic-qrcodes", edit(s.createDynamicCode))
	api.Handle("GET /api/dynamic-qrcodes", read(s.listDynamicCodes(false)))
	api.Handle("GET /api/dynamic-qrcodes/paused", read(s.listDynamicCodes(true)))
	api.Handle("PUT /api/dynamic-qrcodes/{id}", edit(s.setDestination))
	api.Handle("PATCH /api/dynamic-qrcodes/{id}", edit(s.renameDynamicCode))
	api.Handle("DELETE /api/dynamic-qrcodes/{id}", edit(s.deleteDynamicCode))
	api.Handle("POST /api/dynamic-qrcodes/{id}/pause", edit(s.pauseDynamicCode(true)))
	api.Handle("POST /api/dynamic-qrcodes/{id}/resume", edit(s.pauseDynamicCode(false)))
	api.Handle("GET /api/dynamic-qrcodes/{id}/image", read(s.dynamicCodeImage))
	api.Handle("GET /api/dynamic-qrcodes/{id}/preflight", read(s.dynamicCodePreflight))
	// Chosen short codes (issue 34): whether one is free, as the user types.
	api.Handle("GET /api/short-codes/availability", read(s.shortCodeAvailability))
	api.Handle("GET /api/dynamic-qrcodes/{id}/analytics", read(s.codeAnalytics))
	api.Handle("GET /api/dynamic-qrcodes/{id}/scans.csv", read(s.scansCSV))
	api.Handle("PATCH /api/qrcodes/{id}", edit(s.renameQRCode))
	api.Handle("DELETE /api/qrcodes/{id}", edit(s.deleteQRCode))
	api.Handle("GET /api/user-analytics", read(s.userAnalytics))
	api.Handle("GET /api/trial-status", read(s.trialStatus))
	api.HandleFunc("POST /api/activate-trial", s.activateTrial)
	api.HandleFunc("POST /api/set-password", s.setPassword)

	// Account (issue 9) and verification (issue 8): settings, passwords,
	// mailed links that prove an address.
	api.Handle("PUT /api/update-name", user(s.updateName))
	api.Handle("POST /api/delete-account", user(s.deleteAccount))
	api.Handle("POST /api/change-password", user(s.changePassword))
	api.HandleFunc("POST /api/forgot-password", s.forgotPassword)
	api.HandleFunc("POST /api/verify-email", s.verifyEmail)
	api.Handle("POST /api/resend-verification", user(s.resendVerification))
	// Admin panel and mailings (issue 9): admins only (401 signed out, 403 others).
	admin := func(h http.HandlerFunc) http.Handler { return s.auth.RequireAdmin(h) }
	api.Handle("GET /api/newsletter/stats", admin(s.newsletterStats))
	api.Handle("POST /api/send-newsletter", admin(s.sendNewsletter))
	api.Handle("POST /api/send-welcome-to-all", admin(s.queueKind(store.MailingWelcome)))
	api.Handle("POST /api/send-scan-notifications", admin(s.queueKind(store.MailingScans)))
	api.Handle("POST /api/send-pause-notifications", admin(s.queueKind(store.MailingPaused)))
	api.Handle("GET /api/mailings", admin(s.listMailings))
	api.Handle("GET /api/mailings/{id}", admin(s.mailingProgress))
	api.Handle("POST /api/send-test-email", admin(s.sendTestEmail))
	// Payments (issue 11): subscriptions, payment-code checkout, Stripe's webhook.
	api.HandleFunc("GET /api/billing/config", s.billingConfig)
	api.Handle("POST /api/billing/pricing-table", own(s.pricingTable))
	api.Handle("POST /api/billing/checkout-session", own(s.subscriptionCheckout))
	api.Handle("POST /api/billing-portal", own(s.billingPortal))
	api.HandleFunc("POST /api/stripe/webhook", s.stripeWebhook)
	api.HandleFunc("GET /api/payment-product/{id}", s.paymentProduct)
	api.HandleFunc("POST /api/create-payment-intent", s.createPaymentIntent)
	api.HandleFunc("GET /api/payment-intent/{id}", s.paymentStatus)
	// Bulk generation (issue 12).
	api.Handle("POST /api/bulk-generate-qrcode", edit(s.bulkGenerateQRCode))
	api.Handle("POST /api/bulk-jobs", edit(s.createBulkJob))
	api.Handle("GET /api/bulk-jobs/{id}", read(s.bulkJob))
	api.Handle("GET /api/bulk-jobs/{id}/download", read(s.bulkJobDownload))
	// White-label and public API (issue 14): personal API keys, the admins'
	// client management, the host's brand; /api/v1 authenticates with API
	// keys instead of the session, so it is mounted beside /d/ below.
	api.Handle("GET /api/api-keys", manage(s.listAPIKeys))
	api.Handle("POST /api/api-keys", manage(s.createAPIKey))
	api.Handle("DELETE /api/api-keys/{id}", manage(s.deleteAPIKey))
	api.Handle("GET /api/white-label/clients", admin(s.listClients))
	api.Handle("POST /api/white-label/clients", admin(s.createClient))
	api.Handle("PUT /api/white-label/clients/{id}", admin(s.updateClient))
	api.Handle("DELETE /api/white-label/clients/{id}", admin(s.deleteClient))
	api.Handle("POST /api/white-label/clients/{id}/rotate-key", admin(s.rotateClientKey))
	api.HandleFunc("GET /api/white-label/config", s.whiteLabelConfig)
	// The public API (package publicapi): an API key's workspace and rate
	// limit, then the permission; its codes resource, and the app's own
	// handlers where it answers as the app does.
	public := s.newPublicAPI()
	key := func(p auth.Permission, scope string, h http.HandlerFunc) http.Handler {
		return public.Authenticate(public.Require(scope, s.in(p)(h)))
	}
	v1 := http.NewServeMux()
	v1.HandleFunc("GET /api/v1/openapi.json", publicapi.ServeOpenAPI)
	v1.Handle("POST /api/v1/codes", key(auth.PermEdit, publicapi.ScopeCodesWrite, public.CreateCode))
	v1.Handle("GET /api/v1/codes", key(auth.PermRead, publicapi.ScopeCodesRead, public.ListCodes))
	v1.Handle("POST /api/v1/codes/batch", key(auth.PermEdit, publicapi.ScopeCodesWrite, public.BatchCodes))
	v1.Handle("PATCH /api/v1/codes/batch", key(auth.PermEdit, publicapi.ScopeCodesWrite, public.BatchUpdate))
	v1.Handle("POST /api/v1/codes/bulk-edit", key(auth.PermEdit, publicapi.ScopeCodesWrite, s.createBulkEdit))
	v1.Handle("GET /api/v1/bulk-edits/{id}", key(auth.PermRead, publicapi.ScopeCodesRead, s.bulkEdit))
	v1.Handle("GET /api/v1/codes/{id}", key(auth.PermRead, publicapi.ScopeCodesRead, public.GetCode))
	v1.Handle("PATCH /api/v1/codes/{id}", key(auth.PermEdit, publicapi.ScopeCodesWrite, public.UpdateCode))
	v1.Handle("DELETE /api/v1/codes/{id}", key(auth.PermEdit, publicapi.ScopeCodesWrite, public.DeleteCode))
	v1.Handle("POST /api/v1/codes/{id}/pause", key(auth.PermEdit, publicapi.ScopeCodesWrite, public.PauseCode(true)))
	v1.Handle("POST /api/v1/codes/{id}/resume", key(auth.PermEdit, publicapi.ScopeCodesWrite, public.PauseCode(false)))
	v1.Handle("GET /api/v1/codes/{id}/image", key(auth.PermRead, publicapi.ScopeCodesRead, public.CodeImage))
	v1.Handle("GET /api/v1/codes/{id}/analytics", key(auth.PermRead, publicapi.ScopeAnalyticsRead, public.CodeAnalytics))
	v1.Handle("GET /api/v1/codes/{id}/scans.csv", key(auth.PermRead, publicapi.ScopeAnalyticsRead, public.ScansCSV))
	v1.Handle("GET /api/v1/brand-kits", key(auth.PermRead, publicapi.ScopeWorkspaceRead, s.listBrandKits))
	v1.Handle("GET /api/v1/pages", key(auth.PermRead, publicapi.ScopePagesRead, s.listPages))
	v1.Handle("POST /api/v1/pages", key(auth.PermEdit, publicapi.ScopePagesWrite, s.createPage))
	v1.Handle("GET /api/v1/pages/{id}", key(auth.PermRead, publicapi.ScopePagesRead, s.getPage))
	v1.Handle("PUT /api/v1/pages/{id}", key(auth.PermEdit, publicapi.ScopePagesWrite, s.updatePage))
	v1.Handle("DELETE /api/v1/pages/{id}", key(auth.PermEdit, publicapi.ScopePagesWrite, s.deletePage))
	v1.Handle("GET /api/v1/pages/{id}/analytics", key(auth.PermRead, publicapi.ScopeAnalyticsRead, s.pageAnalytics))
	// Workspaces (issue 22, workspaces.go): the caller's workspaces, the
	// session's active one, members, invitations. Under
	// /api/workspaces/{id} the permission is checked in that workspace.
	api.Handle("GET /api/workspaces", user(s.listWorkspaces))
	api.Handle("POST /api/workspaces", user(s.createWorkspace))
	api.Handle("PATCH /api/workspaces/{id}", manage(s.updateWorkspace))
	api.Handle("DELETE /api/workspaces/{id}", own(s.deleteWorkspace))
	api.Handle("PUT /api/workspaces/{id}/auto-join", own(s.setAutoJoin))
	api.Handle("DELETE /api/workspaces/{id}/auto-join", own(s.clearAutoJoin))
	api.Handle("GET /api/workspaces/{id}/sso", own(s.getSSO)) // issue 33 item 3
	api.Handle("PUT /api/workspaces/{id}/sso", own(s.putSSO))
	api.Handle("DELETE /api/workspaces/{id}/sso", own(s.deleteSSO))
	api.Handle("POST /api/workspaces/{id}/scim-token", own(s.newSCIMToken)) // issue 33 item 4
	api.Handle("POST /api/workspaces/{id}/activate", beforeTwoFactor(s.activateWorkspace))
	api.Handle("GET /api/workspaces/{id}/members", read(s.listMembers))
	api.Handle("PATCH /api/workspaces/{id}/members/{userId}", manage(s.setMemberRole))
	api.Handle("DELETE /api/workspaces/{id}/members/{userId}", read(s.removeMember))
	api.Handle("GET /api/workspaces/{id}/invitations", manage(s.listInvitations))
	api.Handle("POST /api/workspaces/{id}/invitations", manage(s.inviteMember))
	api.Handle("DELETE /api/workspaces/{id}/invitations/{invitationId}", manage(s.revokeInvitation))
	api.Handle("GET /api/workspaces/{id}/audit-log", manage(s.auditLog))
	api.Handle("GET /api/workspaces/{id}/audit-log.csv", manage(s.auditLogCSV))
	api.Handle("POST /api/invitations/accept", user(s.acceptInvitation))
	api.HandleFunc("GET /api/invitations/preview", s.previewInvitation)
	// Organisation (issue 22, organise.go): tags, folders, each code's, and
	// one server-side list of both kinds of code.
	api.Handle("GET /api/tags", read(s.listTags))
	api.Handle("POST /api/tags", edit(s.createTag))
	api.Handle("PATCH /api/tags/{id}", edit(s.updateTag))
	api.Handle("DELETE /api/tags/{id}", edit(s.deleteTag))
	api.Handle("GET /api/folders", read(s.listFolders))
	api.Handle("POST /api/folders", edit(s.createFolder))
	api.Handle("PATCH /api/folders/{id}", edit(s.renameFolder))
	api.Handle("DELETE /api/folders/{id}", edit(s.deleteFolder))
	api.Handle("PUT /api/qrcodes/{id}/tags", edit(s.setCodeTags(false)))
	api.Handle("PUT /api/dynamic-qrcodes/{id}/tags", edit(s.setCodeTags(true)))
	api.Handle("PUT /api/qrcodes/{id}/folder", edit(s.setCodeFolder(false)))
	api.Handle("PUT /api/dynamic-qrcodes/{id}/folder", edit(s.setCodeFolder(true)))
	api.Handle("GET /api/codes", read(s.listCodes))
	// Bulk edits (bulkedit.go): a dry run, a job, its progress, its undo.
	api.Handle("POST /api/codes/bulk-edit", edit(s.createBulkEdit))
	api.Handle("POST /api/codes/bulk-edit/sheet", edit(s.createBulkEditSheet))
	api.Handle("GET /api/codes/bulk-edit", read(s.bulkEdits))
	api.Handle("GET /api/codes/bulk-edit/{id}", read(s.bulkEdit))
	api.Handle("POST /api/codes/bulk-edit/{id}/undo", edit(s.undoBulkEdit))
	// Moving codes to another workspace (move.go): an admin's or owner's
	// in both workspaces.
	api.Handle("POST /api/codes/move", manage(s.createMove))
	api.Handle("GET /api/codes/move/{id}", manage(s.move))
	// Brand kits (issue 26, brandkits.go): viewers see them, editors keep them.
	// Hosted pages (issue 35, pages.go; served by hosted.go).
	api.Handle("GET /api/pages", read(s.listPages))
	api.Handle("POST /api/pages", edit(s.createPage))
	api.Handle("GET /api/pages/{id}", read(s.getPage))
	api.Handle("PUT /api/pages/{id}", edit(s.updatePage))
	api.Handle("DELETE /api/pages/{id}", edit(s.deletePage))
	api.Handle("GET /api/pages/{id}/analytics", read(s.pageAnalytics))
	api.Handle("GET /api/brand-kits", read(s.listBrandKits))
	api.Handle("POST /api/brand-kits", edit(s.createBrandKit))
	api.Handle("PUT /api/brand-kits/{id}", edit(s.updateBrandKit))
	api.Handle("DELETE /api/brand-kits/{id}", edit(s.deleteBrandKit))
	// GS1 Digital Link (issue 38, gs1.go): products, their lots and links,
	// a CSV import, a lot's recall, and the resolver's scan counts; the
	// products in /api/v1 too.
	api.Handle("GET /api/gs1/products", read(s.listGS1Products))
	api.Handle("POST /api/gs1/products", edit(s.createGS1Product))
	api.Handle("POST /api/gs1/products/import", edit(s.importGS1Products))
	api.Handle("GET /api/gs1/products/{gtin}", read(s.getGS1Product))
	api.Handle("PUT /api/gs1/products/{gtin}", edit(s.updateGS1Product))
	api.Handle("DELETE /api/gs1/products/{gtin}", edit(s.deleteGS1Product))
	api.Handle("POST /api/gs1/products/{gtin}/lots/{lot}/recall", edit(s.recallGS1Lot))
	api.Handle("GET /api/gs1/analytics", read(s.gs1Analytics))
	v1.Handle("GET /api/v1/gs1/products", key(auth.PermRead, publicapi.ScopeProductsRead, s.listGS1Products))
	v1.Handle("POST /api/v1/gs1/products", key(auth.PermEdit, publicapi.ScopeProductsWrite, s.createGS1Product))
	v1.Handle("POST /api/v1/gs1/products/import", key(auth.PermEdit, publicapi.ScopeProductsWrite, s.importGS1Products))
	v1.Handle("GET /api/v1/gs1/products/{gtin}", key(auth.PermRead, publicapi.ScopeProductsRead, s.getGS1Product))
	v1.Handle("PUT /api/v1/gs1/products/{gtin}", key(auth.PermEdit, publicapi.ScopeProductsWrite, s.updateGS1Product))
	v1.Handle("DELETE /api/v1/gs1/products/{gtin}", key(auth.PermEdit, publicapi.ScopeProductsWrite, s.deleteGS1Product))
	v1.Handle("POST /api/v1/gs1/products/{gtin}/lots/{lot}/recall", key(auth.PermEdit, publicapi.ScopeProductsWrite, s.recallGS1Lot))
	// Public pages (issue 13): the contact form and the footer's newsletter sign-up.
	api.HandleFunc("POST /api/contact", s.contact)
	api.HandleFunc("POST /api/newsletter-signup", s.newsletterSignup)

	// Analytics (issue 15): the account's scans over a range (one code's: above)
	// and each breakdown of either as CSV.
	api.Handle("GET /api/analytics", read(s.accountAnalytics))
	api.Handle("GET /api/analytics/breakdown.csv", read(s.breakdownCSV))
	api.Handle("GET /api/dynamic-qrcodes/{id}/breakdown.csv", read(s.breakdownCSV))
	// Share links (sharelinks.go): editors make and revoke them, every
	// member sees them; their pages are /s/{token} below.
	api.Handle("GET /api/share-links", read(s.listShareLinks))
	api.Handle("POST /api/share-links", edit(s.createShareLink))
	api.Handle("DELETE /api/share-links/{id}", edit(s.deleteShareLink))
	// Scheduled digests (reportschedules.go): every member schedules for
	// themselves, editors and up for any member; the maker or an admin
	// changes one. The unsubscribe link is /unsubscribe/report below.
	api.Handle("GET /api/report-schedules", read(s.listReportSchedules))
	api.Handle("POST /api/report-schedules", read(s.createReportSchedule))
	api.Handle("PUT /api/report-schedules/{id}", read(s.updateReportSchedule))
	api.Handle("DELETE /api/report-schedules/{id}", read(s.deleteReportSchedule))
	api.Handle("POST /api/report-schedules/{id}/send-now", read(s.sendReportNow))
	// Password-protected dynamic codes (issue 10): the owner sets or clears
	// the password; the scan's page posts it to POST /d/{shortCode} below.
	api.Handle("PUT /api/dynamic-qrcodes/{id}/password", edit(s.setCodePassword))
	// Restyle, duplicate and update saved codes (issue 10, restyle.go): a
	// restyle keeps what a code encodes; the preview saves nothing.
	api.Handle("PUT /api/qrcodes/{id}", edit(s.updateQRCode))
	api.Handle("PUT /api/qrcodes/{id}/style", edit(s.restyleQRCode))
	api.Handle("PUT /api/dynamic-qrcodes/{id}/style", edit(s.restyleDynamicCode))
	api.Handle("POST /api/qrcodes/{id}/style/preview", edit(s.previewStyle(false)))
	api.Handle("POST /api/dynamic-qrcodes/{id}/style/preview", edit(s.previewStyle(true)))
	api.Handle("POST /api/qrcodes/{id}/duplicate", edit(s.duplicateQRCode))
	api.Handle("POST /api/dynamic-qrcodes/{id}/duplicate", edit(s.duplicateDynamicCode))

	// PDF analytics report (issue 15 item 4): the same query as the JSON views.
	api.Handle("GET /api/analytics/report.pdf", read(s.reportPDF))
	api.Handle("GET /api/dynamic-qrcodes/{id}/report.pdf", read(s.reportPDF))

	// Operations (issue 25): a workspace's data as a ZIP, redirects included.
	api.Handle("GET /api/account/export", manage(s.workspaceExport))
	api.Handle("GET /api/workspaces/{id}/export", manage(s.workspaceExport))
	// Custom domains of workspaces (issue 25 item 7, domains.go): claims
	// and verification are workspace settings (admins and owners); every
	// member sees them, to pick a code's domain.
	api.Handle("GET /api/domains", read(s.listDomains))
	api.Handle("POST /api/domains", manage(s.createDomain))
	api.Handle("DELETE /api/domains/{id}", manage(s.deleteDomain))
	api.Handle("PATCH /api/domains/{id}", manage(s.setDomainLinks)) // links only (issue 34)
	// Imports from other shorteners (issue 34, imports.go).
	api.Handle("POST /api/imports", edit(s.createImport))
	api.Handle("GET /api/imports/{id}", read(s.getImport))
	api.Handle("POST /api/imports/{id}/verify", edit(s.verifyImport)) // the switch check
	api.Handle("POST /api/domains/{id}/verify", manage(s.verifyDomain))
	api.Handle("POST /api/domains/{id}/pointing", manage(s.checkDomainPointing))
	// Smart dynamic codes (issue 23, routing.go): rules, split, schedule, limit.
	api.Handle("PUT /api/dynamic-qrcodes/{id}/routing", edit(s.setRouting))
	// Saved UTM presets (issue 23 item 3, utmpresets.go) for the UTM builder.
	api.Handle("GET /api/utm-presets", read(s.listUTMPresets))
	api.Handle("POST /api/utm-presets", edit(s.createUTMPreset))
	api.Handle("DELETE /api/utm-presets/{id}", edit(s.deleteUTMPreset))
	// Alerts (issue 24).
	api.Handle("PUT /api/dynamic-qrcodes/{id}/alerts", edit(s.setAlertsMuted))
	api.Handle("PUT /api/workspaces/{id}/alert-emails", read(s.setAlertEmails))
	v1.Handle("PUT /api/v1/codes/{id}/routing", key(auth.PermEdit, publicapi.ScopeCodesWrite, public.SetRouting))
	// Webhooks (issue 24, webhooks.go): owners and admins in the app; API
	// keys (which only they can make) act as editors, so v1 asks for edit.
	api.Handle("GET /api/webhooks", manage(s.listWebhooks))
	api.Handle("POST /api/webhooks", manage(s.createWebhook))
	api.Handle("PATCH /api/webhooks/{id}", manage(s.updateWebhook))
	api.Handle("DELETE /api/webhooks/{id}", manage(s.deleteWebhook))
	api.Handle("POST /api/webhooks/{id}/rotate-secret", manage(s.rotateWebhookSecret))
	api.Handle("POST /api/webhooks/{id}/test", manage(s.testWebhook))
	api.Handle("GET /api/webhooks/{id}/deliveries", manage(s.webhookDeliveries))
	api.Handle("GET /api/webhooks/{id}/deliveries/{deliveryId}", manage(s.webhookDelivery))
	api.Handle("POST /api/webhooks/{id}/deliveries/{deliveryId}/retry", manage(s.retryWebhookDelivery))
	v1.Handle("GET /api/v1/webhooks", key(auth.PermEdit, publicapi.ScopeWebhooksRead, s.listWebhooks))
	v1.Handle("POST /api/v1/webhooks", key(auth.PermEdit, publicapi.ScopeWebhooksWrite, s.createWebhook))
	v1.Handle("PATCH /api/v1/webhooks/{id}", key(auth.PermEdit, publicapi.ScopeWebhooksWrite, s.updateWebhook))
	v1.Handle("DELETE /api/v1/webhooks/{id}", key(auth.PermEdit, publicapi.ScopeWebhooksWrite, s.deleteWebhook))
	v1.Handle("POST /api/v1/webhooks/{id}/rotate-secret", key(auth.PermEdit, publicapi.ScopeWebhooksWrite, s.rotateWebhookSecret))
	v1.Handle("POST /api/v1/webhooks/{id}/test", key(auth.PermEdit, publicapi.ScopeWebhooksWrite, s.testWebhook))
	v1.Handle("GET /api/v1/webhooks/{id}/deliveries", key(auth.PermEdit, publicapi.ScopeWebhooksRead, s.webhookDeliveries))
	v1.Handle("GET /api/v1/webhooks/{id}/deliveries/{deliveryId}", key(auth.PermEdit, publicapi.ScopeWebhooksRead, s.webhookDelivery))
	v1.Handle("POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/retry", key(auth.PermEdit, publicapi.ScopeWebhooksWrite, s.retryWebhookDelivery))

	site := http.NewServeMux()
	s.api = jsonFallback(api)
	site.Handle("/api/", frameDenied(apiCSP, s.auth.LoadUser(gzipJSON(s.loadWorkspace(s.api)))))
	site.HandleFunc("GET /auth/google", s.auth.GoogleStart)
	site.HandleFunc("GET /auth/google/callback", s.auth.GoogleCallback)
	site.HandleFunc("GET /auth/oidc", s.auth.OIDCStart) // issue 27
	site.HandleFunc("GET /auth/oidc/callback", s.auth.OIDCCallback)
	site.HandleFunc("GET /auth/saml/{id}/metadata", s.samlMetadata) // issue 33 item 3
	site.HandleFunc("GET /auth/saml/{id}/login", s.samlLogin)
	site.HandleFunc("POST /auth/saml/{id}/acs", s.samlACS)
	site.Handle("/scim/v2/{ws}/{rest...}", s.scimHandler()) // issue 33 item 4
	// Uploaded files and their pages (issue 4).
	site.HandleFunc("GET /logo/{id}", s.serveBlob("logo"))
	site.HandleFunc("GET /pdf/{id}", s.filePageHandler("pdf", "/pdf/"))
	site.HandleFunc("GET /pdf/{id}/file", s.serveBlob("pdf"))
	site.HandleFunc("GET /images/{id}", s.filePageHandler("image", "/images/"))
	site.HandleFunc("GET /images/{id}/file", s.serveBlob("image"))
	// The unsubscribe link of every bulk message (issue 9): GET shows a
	// button, POST (the button or RFC 8058 one-click) unsubscribes.
	site.HandleFunc("GET /unsubscribe", s.unsubscribe)
	// A share link's public page, its CSV (/s/{token}.csv) and password form.
	site.HandleFunc("GET /s/{token}", s.sharePage)
	site.HandleFunc("POST /s/{token}", s.sharePage)
	site.HandleFunc("POST /unsubscribe", s.unsubscribe)
	site.HandleFunc("GET /unsubscribe/report", s.unsubscribeReport)
	site.HandleFunc("POST /unsubscribe/report", s.unsubscribeReport)
	// Payments (issue 11): Stripe.js is allowed only on the pages that load it.
	if s.billing != nil {
		site.Handle("GET /subscribe", frameDenied(stripeCSP, s.pages))
		site.Handle("GET /payment", frameDenied(stripeCSP, s.pages))
	}
	site.Handle("/", s.app())

	// Scans of dynamic codes skip the site's middleware (see redirect.go),
	// except for the client address behind a trusted proxy.
	root := http.NewServeMux()
	redirect := http.Handler(http.HandlerFunc(s.redirect))
	if s.cfg.TrustProxy {
		redirect = forwardedFor(redirect)
	}
	root.Handle(scanPattern, redirect)
	unlock := http.Handler(http.HandlerFunc(s.unlockCode))
	if s.cfg.TrustProxy {
		unlock = forwardedFor(unlock)
	}
	root.Handle("POST /d/{shortCode}", unlock)
	// Hosted pages (issue 35, hosted.go), on the base URL and on
	// workspaces' domains.
	for pattern, h := range map[string]http.HandlerFunc{
		"GET /p/{slug}": s.servePage, "GET /p/{slug}/go/{n}": s.pageGo,
		"GET /p/{slug}/contact.vcf": s.pageContact, "GET /p/{slug}/event.ics": s.pageCalendar,
	} {
		if s.cfg.TrustProxy {
			root.Handle(pattern, forwardedFor(h))
		} else {
			root.Handle(pattern, h)
		}
	}
	// The GS1 Digital Link resolver (gs1.go), on the base URL and on
	// workspaces' domains.
	resolve := http.HandlerFunc(s.resolveGS1)
	root.Handle(gs1Pattern, resolve)
	// Operations: load balancer checks and counters (issue 8, health.go).
	// The pointing check of custom domains (domains.go), on every host.
	root.HandleFunc("GET "+domains.ReachPath+"{nonce}", s.answerReach)
	root.HandleFunc("GET /healthz", s.healthz)
	root.HandleFunc("GET /readyz", s.readyz)
	root.HandleFunc("GET /tls/allowed", s.tlsAllowed)
	root.Handle("/api/v1/", s.publicAPI(v1))
	// The compatible APIs (issue 34, compat.go): Shlink's /rest/v3 and
	// YOURLS's yourls-api.php, behind the same keys.
	s.compatRoutes(root, public)
	root.Handle("/", s.middleware(notePattern(site)))
	// Metrics (issue 25): on the public listener only with a bearer token.
	// A workspace's verified domain serves its codes only (domains.go).
	if s.metrics == nil {
		return s.scansFirst(redirect, resolve, securityHeaders(s.requestID(s.onCustomDomain(root))))
	}
	if s.cfg.MetricsToken != "" {
		root.Handle("GET /metrics", s.metricsToken(s.metrics.Handler()))
	}
	return s.scansFirst(redirect, resolve, securityHeaders(s.requestID(s.observe(s.onCustomDomain(notePattern(root))))))
}

// app serves the React app under its CSP.
func (s *server) app() http.Handler { return frameDenied(appCSP, s.pages) }

// jsonFallback serves api, answering paths it does not know with a JSON 404
// and known paths with the wrong method with a JSON 405, where ServeMux
// would answer in plain text.
func jsonFallback(api *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := api.Handler(r)
		if pattern != "" {
			noteRoute(r, pattern)
			api.ServeHTTP(w, r)
			return
		}
		// ServeMux's own answer tells 404 from 405 and sets Allow.
		probe := &statusProbe{header: w.Header()}
		h.ServeHTTP(probe, r)
		if probe.status == http.StatusMethodNotAllowed {
			writeError(w, http.StatusMethodNotAllowed, "Method not allowed")
			return
		}
		writeError(w, http.StatusNotFound, "Not found")
	})
}

// statusProbe is a ResponseWriter that keeps headers and status and drops the body.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header         { return p.header }
func (p *statusProbe) WriteHeader(status int)      { p.status = status }
func (p *statusProbe) Write(b []byte) (int, error) { return len(b), nil }
