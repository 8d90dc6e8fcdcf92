package scim

import "fmt"

// The discovery endpoints (RFC 7644 §4): what this server supports, so an
// IdP's client sends only that.

func serviceProviderConfig(baseURL string, ws int64) map[string]any {
	no := map[string]bool{"supported": false}
	return map[string]any{
		"schemas":          []string{"urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"},
		"documentationUri": baseURL + "/docs/API.md",
		"patch":            map[string]bool{"supported": true},
		"bulk":             map[string]any{"supported": false, "maxOperations": 0, "maxPayloadSize": 0},
		"filter":           map[string]any{"supported": true, "maxResults": maxPage},
		"changePassword":   no, "sort": no, "etag": no,
		"authenticationSchemes": []map[string]any{{"type": "oauthbearertoken", "name": "Bearer token",
			"description": "The workspace's SCIM token, made by an owner on the Members page", "primary": true}},
		"meta": map[string]string{"resourceType": "ServiceProviderConfig", "location": fmt.Sprintf("%s/scim/v2/%d/ServiceProviderConfig", baseURL, ws)},
	}
}

func resourceTypes(baseURL string, ws int64) []map[string]any {
	kind := func(name, endpoint, schema string) map[string]any {
		return map[string]any{
			"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:ResourceType"},
			"id":      name, "name": name, "endpoint": endpoint, "schema": schema,
			"meta": map[string]string{"resourceType": "ResourceType", "location": fmt.Sprintf("%s/scim/v2/%d/ResourceTypes/%s", baseURL, ws, name)},
		}
	}
	return []map[string]any{kind("User", "/Users", schemaUser), kind("Group", "/Groups", schemaGroup)}
}

// attribute is one attribute of a schema, as RFC 7643 §7 describes it.
func attribute(name, typ string, required bool, mutability string, sub ...map[string]any) map[string]any {
	a := map[string]any{"name": name, "type": typ, "multiValued": false, "required": required, "caseExact": false,
		"mutability": mutability, "returned": "default", "uniqueness": "none"}
	if len(sub) > 0 {
		a["subAttributes"] = sub
	}
	return a
}

func schemas() []map[string]any {
	multi := func(a map[string]any) map[string]any { a["multiValued"] = true; return a }
	userName := attribute("userName", "string", true, "readWrite")
	userName["uniqueness"] = "server"
	return []map[string]any{
		{"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:Schema"}, "id": schemaUser, "name": "User", "description": "A member's account",
			"attributes": []map[string]any{
				userName,
				attribute("externalId", "string", false, "readWrite"),
				attribute("name", "complex", false, "readWrite",
					attribute("givenName", "string", false, "readWrite"), attribute("familyName", "string", false, "readWrite")),
				multi(attribute("emails", "complex", false, "readWrite",
					attribute("value", "string", false, "readWrite"), attribute("primary", "boolean", false, "readWrite"))),
				attribute("active", "boolean", false, "readWrite"),
			}},
		{"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:Schema"}, "id": schemaGroup, "name": "Group", "description": "A group whose name maps to a role",
			"attributes": []map[string]any{
				attribute("displayName", "string", true, "readWrite"),
				attribute("externalId", "string", false, "readWrite"),
				multi(attribute("members", "complex", false, "readWrite", attribute("value", "string", false, "immutable"))),
			}},
	}
}
