import {
  formatMinorUnits,
  type Product,
  type SearchCatalogOutput,
  type Variant,
} from '@catalogkit/core';

/** The commission the service sent on an offer (its shape is not public; this is the common one). */
function commissionOf(variant: Variant): number | undefined {
  const commission = variant.placement?.commission as
    | { percentage?: { value?: unknown } }
    | undefined;
  const value = commission?.percentage?.value;
  return typeof value === 'number' ? value : undefined;
}

/** The offer a card shows: the first one that has a buy link. */
function offerOf(product: Product): Variant | undefined {
  return product.variants.find((variant) => variant.url) ?? product.variants[0];
}

function ProductCard({ product }: { product: Product }) {
  const offer = offerOf(product);
  if (!offer) return null;
  const commission = commissionOf(offer);
  const onSale =
    offer.price && offer.list_price && offer.list_price.amount > offer.price.amount
      ? offer.list_price
      : undefined;
  const retailer = offer.seller?.name ?? 'the retailer';
  return (
    <article className="product-card" data-product-id={product.id}>
      <h3 className="product-title">{product.title}</h3>
      <p className="product-retailer">{retailer}</p>
      <div className="product-meta">
        {offer.price ? (
          <span className="product-price">
            {formatMinorUnits(offer.price)}
            {onSale ? <s className="product-list-price">{formatMinorUnits(onSale)}</s> : null}
          </span>
        ) : null}
        {commission !== undefined ? (
          <span className="commission" title="Commission the retailer pays on this sale">
            {commission}% commission
          </span>
        ) : null}
      </div>
      {offer.availability?.available === false ? <p className="stock">Out of stock</p> : null}
      {offer.url ? (
        // The buy link exactly as the tool returned it: rewriting it would lose the commission.
        <a className="buy" href={offer.url} target="_blank" rel="sponsored noopener noreferrer">
          Buy at {retailer}
        </a>
      ) : null}
    </article>
  );
}

/** The products of one catalog search, as cards. */
export function ProductCards({ output }: { output: SearchCatalogOutput }) {
  const { products } = output.result;
  if (products.length === 0) return <p className="tool-note">No products matched.</p>;
  return (
    <div className="product-grid">
      {products.map((product) => (
        <ProductCard key={product.id} product={product} />
      ))}
    </div>
  );
}
