// Shading shared by the character and ground fragment shaders: one directional light
// (Lambert diffuse plus a normalized Blinn-Phong lobe whose exponent follows the material's
// roughness) and hemispheric ambient, all in linear light.

vec3 hemisphere_ambient(vec3 n) {
    return mix(frame.ground_color.rgb, frame.sky_color.rgb, n.y * 0.5 + 0.5);
}

vec3 shade(vec3 albedo, vec3 n, vec3 world_pos, float roughness, vec3 f0) {
    vec3 l = frame.light_dir.xyz;
    vec3 v = normalize(frame.camera_pos.xyz - world_pos);
    vec3 h = normalize(l + v);
    float n_dot_l = max(dot(n, l), 0.0);
    // alpha = roughness^2 and exponent 2/alpha^2 - 2: the usual Blinn-Phong stand-in for a
    // microfacet lobe of that roughness.
    float alpha = max(roughness * roughness, 0.03);
    float exponent = max(2.0 / (alpha * alpha) - 2.0, 1.0);
    float spec_norm = (exponent + 8.0) / 25.1327; // (n + 8) / (8 pi)
    vec3 fresnel = f0 + (1.0 - f0) * pow(1.0 - max(dot(h, v), 0.0), 5.0);
    vec3 specular = fresnel * spec_norm * pow(max(dot(n, h), 0.0), exponent);
    vec3 direct = (albedo * (1.0 - f0) / 3.14159265 + specular) * frame.light_color.rgb * n_dot_l;
    return direct + albedo * hemisphere_ambient(n);
}
