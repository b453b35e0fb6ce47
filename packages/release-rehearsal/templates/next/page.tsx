// A page beside the route handler, so the build has one of each.
export default function Page() {
  return <p>POST /api/search</p>;
}
